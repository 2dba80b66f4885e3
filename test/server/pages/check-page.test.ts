/**
 * The check page's controls and facts (server/pages/check-page.ts, check-actions.ts, desc-text.ts, charts.ts): the
 * description with its line breaks and links, the title and favicon of this check alone, integrations switched on and
 * off with a plain form post (what the Management API then reports), and the duration chart's axes with 1 and 100 runs.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Ping } from '../../../shared/models/ping.js';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { descLines } from '../../../server/pages/checks/desc-text.js';

const MINUTE = 60_000;

/** A project with a read-write member signed in, and a check. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; one: (id: string) => string }> {
  const built = await buildProject({ name: 'ops' });
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  return { built, agent, one: (id) => `/projects/${built.project._id}/checks/${id}/` };
}

/** `count` runs of 1 to `count` minutes, one every hour, the newest ending a minute ago. */
async function addRuns(checkId: string, count: number): Promise<void> {
  const now = Date.now();
  const pings = Array.from({ length: count }, (_, i) => {
    const start = now - (count - i) * 60 * MINUTE;
    return [{ n: 2 * i + 1, kind: 'start', created: new Date(start) }, { n: 2 * i + 2, kind: 'success', created: new Date(start + (i + 1) * MINUTE) }];
  });
  await Ping.insertMany(pings.flat().map((p) => ({ ...p, checkId })));
}

describe('the check page: description, title, integrations and chart axes', () => {
  it('splits a description into lines and links its http(s) URLs, leaving trailing punctuation out', () => {
    expect(descLines('')).to.deep.equal([]);
    expect(descLines('Runs nightly.\r\n\nSee https://wiki.example.org/a?b=1, or ftp://x.')).to.deep.equal([
      [{ text: 'Runs nightly.' }],
      [],
      [{ text: 'See ' }, { text: 'https://wiki.example.org/a?b=1', href: 'https://wiki.example.org/a?b=1' }, { text: ', or ftp://x.' }],
    ]);
    expect(descLines('javascript:alert(1) http://a.example/<b>')).to.deep.equal([[{ text: 'javascript:alert(1) ' }, { text: 'http://a.example/', href: 'http://a.example/' }, { text: '<b>' }]]);
  });

  it('shows the description with its line break and an escaped link with rel="nofollow noopener"', async () => {
    const { built, agent, one } = await setUp();
    const check = await buildCheck(built, { name: 'backup', desc: 'Backs up <db>.\nRunbook: https://wiki.example.org/backup?a=1&b=2' });
    const page = (await agent.get(one(check._id))).text;
    expect(page).to.contain('<p class="check-desc" id="check-desc">Backs up &lt;db&gt;.<br>Runbook: <a href="https://wiki.example.org/backup?a=1&amp;b=2" rel="nofollow noopener">https://wiki.example.org/backup?a=1&amp;b=2</a></p>');
  });

  it("gives a healthy check's page no down count and the normal favicon while another check is down; a down check's is red", async () => {
    const { built, agent, one } = await setUp();
    const healthy = await buildCheck(built, { name: 'healthy', status: 'up', lastPing: new Date(), timeout: 3600 });
    const down = await buildCheck(built, { name: 'broken', status: 'down', lastPing: new Date(Date.now() - 7200_000) });
    const list = (await agent.get(`/projects/${built.project._id}/`)).text;
    expect(list).to.match(/<title[^>]*>1 down · /);
    const page = (await agent.get(one(healthy._id))).text;
    expect(page).to.match(/<title data-title="healthy · [^"]+">healthy · /);
    expect(page).to.contain('id="favicon" href="/static/favicon.svg"');
    expect(page).not.to.contain('name="live-status"');
    const red = (await agent.get(one(down._id))).text;
    expect(red).to.match(/<title data-title="broken · [^"]+">down · broken · /);
    expect(red).to.contain('id="favicon" href="/static/favicon-down.svg"');
  });

  it("switches an integration on and off with a form post, as GET /api/v3/checks/<uuid> then reports in channels", async () => {
    const { built, agent, one } = await setUp();
    const check = await buildCheck(built, { name: 'backup' });
    const [mail, hook] = [await buildChannel(built, { name: 'ops mail' }), await buildChannel(built, { name: 'hook', kind: 'webhook', value: 'x' })];
    const page = (await agent.get(one(check._id))).text;
    expect(page).to.contain(`action="${one(check._id)}channels/${mail._id}"`).and.contain('title="Alerts of this check to ops mail: click to switch on"');
    const _csrf = csrfOf(page);
    const on = await agent.post(`${one(check._id)}channels/${mail._id}`).type('form').send({ _csrf, on: '1' });
    expect(on.status).to.equal(303);
    expect(on.headers.location).to.equal(`${one(check._id)}#integrations`);
    const api = () => http().get(`/api/v3/checks/${check._id}`).set('X-Api-Key', built.apiKey);
    expect((await api()).body.channels).to.equal(mail._id);
    await agent.post(`${one(check._id)}channels/${mail._id}`).type('form').send({ _csrf, on: '0' });
    expect((await api()).body.channels).to.equal('');
    expect((await agent.get(one(check._id))).text).to.contain(`data-channel="${hook._id}" title="Alerts of this check to hook: click to switch on"><span class="switch-state">off</span> <span class="integration-name">hook</span></button>`);
    const stranger = await buildChannel(await buildProject({ name: 'other' }), { name: 'theirs' });
    expect((await agent.post(`${one(check._id)}channels/${stranger._id}`).type('form').send({ _csrf, on: '1' })).status).to.equal(400);
  });

  it('draws the duration chart with a value axis in units and time ticks, for 1 run and for 100', async () => {
    const { built, agent, one } = await setUp();
    const single = await buildCheck(built, { name: 'once', nPings: 2 });
    await addRuns(single._id, 1);
    const page = (await agent.get(one(single._id))).text;
    const ticks = (html: string, axis: string) => [...(new RegExp(`<g class="axis ${axis}"[\\s\\S]*?</g>`).exec(html)?.[0] ?? '').matchAll(/<text class="tick"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks(page, 'value-axis')).to.deep.equal(['0', '15 s', '30 s', '45 s', '1 min']);
    expect(ticks(page, 'time-axis')).to.have.length(1);
    const bar = /<rect x="[\d.]+" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" class="run-success">/.exec(page)!;
    expect(Number(bar[2])).to.be.at.most(16);
    const many = await buildCheck(built, { name: 'hourly', nPings: 200 });
    await addRuns(many._id, 100);
    const full = (await agent.get(one(many._id))).text;
    expect(full.match(/<rect [^>]*class="run-success"/g)).to.have.length(100);
    expect(ticks(full, 'value-axis')).to.deep.equal(['0', '30 min', '1 h', '1 h 30 min', '2 h']);
    expect(ticks(full, 'time-axis')).to.have.length(5);
  });
});
