/**
 * What a status page says, read through its JSON and HTML (server/status/snapshot.ts, shared/domain/status-page.ts; docs/status-pages.md, "What visitors see"):
 * the overall status, the 90-day bars from stored flips, the incidents kept 90 days, and the JSON's fields.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Flip } from '../../../shared/models/flip.js';
import { Maintenance } from '../../../shared/models/maintenance.js';
import type { CheckDoc, StoredStatus } from '../../../shared/models/check.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildIncident, buildStatusPage, daysAgo, jsonOf, visitor } from './support.js';

/** A fixed present for the history tests: noon UTC. */
const NOW = new Date('2026-11-28T12:00:00Z');
const HOUR_MS = 3600_000;

interface StatusJson {
  page: Record<string, unknown>;
  status: { indicator: string; description: string };
  sections: { name: string; components: { name: string; status: string; uptime: number | null; days: { date: string; uptime: number | null; downtimes: number; down_seconds: number }[] }[] }[];
  incidents: { id: string; title: string; status: string; created: string; resolved: string | null; updates: { at: string; status: string; text: string }[] }[];
  generated: string;
}

describe('what a status page says', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  /** A page of one section with a check per status; its JSON. */
  async function pageWith(statuses: StoredStatus[]): Promise<{ checks: CheckDoc[]; read: () => Promise<StatusJson> }> {
    const checks = await Promise.all(statuses.map((status) => buildCheck(project, { status })));
    await buildStatusPage(project, { Jobs: checks.map((c, n): [CheckDoc, string] => [c, `Job ${n}`]) });
    return { checks, read: async () => jsonOf(await visitor().get('/status/acme/status.json')) as unknown as StatusJson };
  }

  it('says "All systems operational" when every component is up', async () => {
    const { read } = await pageWith(['up', 'up', 'up']);
    expect((await read()).status).to.deep.equal({ indicator: 'operational', description: 'All systems operational' });
    expect((await visitor().get('/status/acme/')).text).to.contain('All systems operational');
  });

  it('says "Partial outage" when 1 of 3 components is down, and shows that one as an outage', async () => {
    const { read } = await pageWith(['up', 'down', 'up']);
    const body = await read();
    expect(body.status).to.deep.equal({ indicator: 'partial', description: 'Partial outage' });
    expect(body.sections[0].components.map((c) => c.status)).to.deep.equal(['operational', 'outage', 'operational']);
  });

  it('says "Major outage" when 2 of 3 components are down', async () => {
    const { read } = await pageWith(['down', 'down', 'up']);
    expect((await read()).status).to.deep.equal({ indicator: 'major', description: 'Major outage' });
    expect((await visitor().get('/status/acme/')).text).to.contain('Major outage');
  });

  it('says "Under maintenance" when a window covers a component and nothing is down', async () => {
    const { checks, read } = await pageWith(['up', 'up', 'up']);
    const now = new Date();
    await Maintenance.create({ _id: randomUUID(), projectId: project.project._id, name: 'db upgrade', start: daysAgo(1, now), end: daysAgo(-1, now), checkIds: [checks[1]._id], created: now });
    const body = await read();
    expect(body.status).to.deep.equal({ indicator: 'maintenance', description: 'Under maintenance' });
    expect(body.sections[0].components[1].status).to.equal('maintenance');
  });

  it('shows a stored 2-hour down spell 10 days ago in that day of the 90-day bar, and the span below 100 %', async () => {
    const check = await buildCheck(project, { status: 'up', created: daysAgo(200, NOW) });
    const down = new Date(daysAgo(10, NOW).getTime() - 9 * HOUR_MS);
    await Flip.create({ checkId: check._id, created: down, recorded: down, oldStatus: 'up', newStatus: 'down' });
    await Flip.create({ checkId: check._id, created: new Date(down.getTime() + 2 * HOUR_MS), recorded: down, oldStatus: 'down', newStatus: 'up' });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const body = jsonOf(await visitor(() => NOW).get('/status/acme/status.json')) as unknown as StatusJson;
    const { days, uptime } = body.sections[0].components[0];
    expect(days).to.have.length(90);
    expect(days.filter((d) => d.downtimes > 0)).to.deep.equal([{ date: '2026-11-18', uptime: 22 / 24, downtimes: 1, down_seconds: 7200 }]);
    expect(uptime).to.be.above(0.99).and.below(1);
  });

  it('lists open and resolved incidents of the last 90 days newest first, and not one resolved 100 days ago', async () => {
    const page = await buildStatusPage(project);
    await buildIncident(page, 'Old and resolved', daysAgo(101), ['investigating', 'resolved']);
    await buildIncident(page, 'Resolved last month', daysAgo(30), ['investigating', 'resolved']);
    await buildIncident(page, 'Still open', daysAgo(2), ['investigating', 'identified']);
    await buildIncident(page, 'Resolved yesterday', daysAgo(1), ['investigating', 'resolved']);
    const body = jsonOf(await visitor().get('/status/acme/status.json')) as unknown as StatusJson;
    expect(body.incidents.map((i) => i.title)).to.deep.equal(['Resolved yesterday', 'Still open', 'Resolved last month']);
    const html = (await visitor().get('/status/acme/')).text;
    expect(html).to.contain('Still open').and.contain('Resolved last month').and.not.contain('Old and resolved');
    expect(html.indexOf('Resolved yesterday')).to.be.below(html.indexOf('Resolved last month'));
  });

  it('keeps listing an incident still open after 90 days, among the ongoing ones', async () => {
    const page = await buildStatusPage(project);
    await buildIncident(page, 'Long-running', daysAgo(120), ['investigating', 'monitoring']);
    const body = jsonOf(await visitor().get('/status/acme/status.json')) as unknown as StatusJson;
    expect(body.incidents.map((i) => [i.title, i.status, i.resolved])).to.deep.equal([['Long-running', 'monitoring', null]]);
    const html = (await visitor().get('/status/acme/')).text;
    expect(html.indexOf('Long-running')).to.be.within(html.indexOf('Ongoing incidents'), html.indexOf('Past incidents'));
  });

  it('gives the JSON its documented fields', async () => {
    const check = await buildCheck(project, { status: 'up' });
    const page = await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const incident = await buildIncident(page, 'Slow imports', daysAgo(1), ['investigating', 'resolved']);
    const body = jsonOf(await visitor().get('/status/acme/status.json')) as unknown as StatusJson;
    expect(body).to.have.all.keys('page', 'status', 'sections', 'incidents', 'generated');
    expect(body.page).to.deep.equal({ title: 'Acme services', description: 'What Acme runs at night', url: 'http://localhost:8000/status/acme/', time_zone: 'UTC' });
    expect(body.status).to.have.all.keys('indicator', 'description');
    expect(body.sections[0].components[0]).to.have.all.keys('name', 'status', 'uptime', 'days');
    expect(body.sections[0].components[0].days[0]).to.have.all.keys('date', 'uptime', 'downtimes', 'down_seconds');
    expect(body.incidents[0]).to.deep.include({ id: incident._id, title: 'Slow imports', status: 'resolved', created: incident.created.toISOString() });
    expect(body.incidents[0].updates.map((u) => u.status)).to.deep.equal(['resolved', 'investigating']);
    expect(new Date(body.generated).getTime()).to.be.at.most(Date.now());
  });

  it("counts the bar's days in the page's zone: a spell at 03:00 UTC falls on the day before in New York", async () => {
    const check = await buildCheck(project, { status: 'up', created: daysAgo(200, NOW) });
    const down = new Date('2026-11-18T03:00:00Z');
    await Flip.create({ checkId: check._id, created: down, recorded: down, oldStatus: 'up', newStatus: 'down' });
    await Flip.create({ checkId: check._id, created: new Date(down.getTime() + HOUR_MS), recorded: down, oldStatus: 'down', newStatus: 'up' });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] }, { tz: 'America/New_York' });
    const body = jsonOf(await visitor(() => NOW).get('/status/acme/status.json')) as unknown as StatusJson;
    const { days } = body.sections[0].components[0];
    expect(days.at(-1)?.date).to.equal('2026-11-28');
    expect(days.filter((d) => d.downtimes > 0).map((d) => [d.date, d.down_seconds])).to.deep.equal([['2026-11-17', 3600]]);
  });

  it('leaves out a component whose check belongs to another project', async () => {
    const other = await buildProject({ name: 'someone else' });
    const mine = await buildCheck(project, { status: 'up' });
    const theirs = await buildCheck(other, { status: 'down' });
    await buildStatusPage(project, { Jobs: [[mine, 'Import'], [theirs, 'Not ours']] });
    const body = jsonOf(await visitor().get('/status/acme/status.json')) as unknown as StatusJson;
    expect(body.sections[0].components.map((c) => c.name)).to.deep.equal(['Import']);
    expect(body.status.indicator).to.equal('operational');
  });
});
