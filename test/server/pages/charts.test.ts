/**
 * The check in pictures over HTTP (server/pages/checks/charts.ts, timeline.ts): the run-duration chart with its stats and
 * table, uptime and monthly downtimes on the check page, the project timeline; names escaped everywhere.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, join, signIn, webAgent } from '../../helpers/web.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const MINUTE = 60_000;
const NAME = '<script>alert(1)</script> & "nightly"';

/** A project with a read-only member signed in, its clock at NOW. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; base: string }> {
  const built = await buildProject();
  await join(built.project._id, await buildUser('ro@example.org'), 'ro');
  const agent = webAgent({}, () => NOW);
  await signIn(agent, 'ro@example.org');
  return { built, agent, base: `/projects/${built.project._id}` };
}

/** Pings straight into the database: `[kind, minutes before NOW, rid]`. */
async function addPings(check: CheckDoc, pings: Array<[PingDoc['kind'], number, string?]>): Promise<void> {
  await Ping.insertMany(pings.map(([kind, minutes, rid], i) => ({ checkId: check._id, n: i + 1, kind, created: new Date(NOW.getTime() - minutes * MINUTE), rid: rid ?? null })));
}

describe('the check in pictures', () => {
  it('draws the last runs with min, median, p95 and max, and lists them in a table', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: NAME, status: 'up' });
    // Runs of 1, 2, 3 and 10 minutes; a success without a start is no run.
    await addPings(check, [['start', 100], ['success', 99], ['start', 90, 'a'], ['log', 89], ['success', 88, 'a'], ['start', 80], ['fail', 77], ['success', 70], ['start', 60], ['success', 50]]);
    const page = await agent.get(`${base}/checks/${check._id}/`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('id="duration-stats">Last 4 runs: min 1 min, median 2 min 30 s, p95 8 min 57 s, max 10 min.');
    expect(page.text.match(/<rect [^>]*class="run-(success|fail)"/g)).to.have.length(4);
    expect(page.text).to.contain('<td>3 min</td><td>fail</td><td>—</td>').and.contain('<td>2 min</td><td>success</td><td>a</td>');
    expect(page.text).not.to.contain('<script>alert(1)');
    expect(page.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;nightly&quot;');
  });

  it('says there are no runs yet for a check without any', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'fresh' });
    const page = await agent.get(`${base}/checks/${check._id}/`);
    expect(page.text).to.contain('id="duration-stats">No runs yet');
    expect(page.text).not.to.contain('class="run-success"');
    expect(page.text).to.match(/<td>24 hours<\/td><td>no data<\/td><td>none<\/td>/);
  });

  it('states uptime over 24 hours to 90 days from flips, and downtimes by month', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'api', status: 'up', created: new Date('2026-08-01T00:00:00Z') });
    const flip = (iso: string, oldStatus: string, newStatus: string) => ({ checkId: check._id, created: new Date(iso), recorded: new Date(iso), oldStatus, newStatus });
    await Flip.insertMany([
      flip('2026-08-01T00:00:00Z', 'new', 'up'),
      flip('2026-10-31T18:00:00Z', 'up', 'down'),
      flip('2026-11-01T06:00:00Z', 'down', 'up'),
      flip('2026-11-27T06:00:00Z', 'up', 'down'),
      flip('2026-11-27T09:00:00Z', 'down', 'up'),
    ]);
    const page = await agent.get(`${base}/checks/${check._id}/`);
    // 3 of 24 hours down: 87.50%; 90 days: 15 of 2160 hours down.
    expect(page.text).to.contain('<td>24 hours</td><td>87.50%</td><td>3 h</td>');
    expect(page.text).to.contain('<td>90 days</td><td>99.30%</td><td>15 h</td>');
    expect(page.text).to.contain('<td>November 2026</td><td>2</td><td>9 h</td>').and.contain('<td>October 2026</td><td>1</td><td>6 h</td>').and.contain('<td>September 2026</td><td>0</td><td>—</td>');
  });

  it("shows the project's last 24 hours: each check's runs and down periods, names escaped", async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: NAME, status: 'up' });
    const idle = await buildCheck(built, { name: 'idle' });
    await addPings(check, [['start', 26 * 60], ['success', 25 * 60], ['start', 30], ['fail', 25]]);
    await Flip.create({ checkId: check._id, created: new Date(NOW.getTime() - 120 * MINUTE), recorded: NOW, oldStatus: 'up', newStatus: 'down' });
    await Flip.create({ checkId: check._id, created: new Date(NOW.getTime() - 60 * MINUTE), recorded: NOW, oldStatus: 'down', newStatus: 'up' });
    const list = await agent.get(`${base}/`);
    expect(list.text).to.contain(`href="${base}/timeline/" id="timeline-link"`);
    const page = await agent.get(`${base}/timeline/`);
    expect(page.status).to.equal(200);
    expect(page.text).not.to.contain('<script>alert(1)');
    expect(page.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const row = page.text.slice(page.text.indexOf(`<tr data-check="${check._id}">`));
    expect(row).to.match(/data-field="runs">1 \(1 failed\)<\/td>\s*<td>5 min<\/td>\s*<td>1<\/td>\s*<td>1 h<\/td>/);
    expect(page.text).to.contain(`<tr data-check="${idle._id}">`);
    expect(page.text.match(/class="run run-fail"/g)).to.have.length(1);
    expect(page.text.match(/class="down"/g)).to.have.length(1);
  });

  it('answers 404 with a page for a project that is not theirs', async () => {
    const { agent } = await setUp();
    const other = await buildProject();
    const page = await agent.get(`/projects/${other.project._id}/timeline/`);
    expect(page.status).to.equal(404);
    expect(page.type).to.equal('text/html');
  });
});
