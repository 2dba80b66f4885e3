/**
 * The check page's story (server/pages/checks/check-page.ts, check-events.ts, ping-details.ts): pings, flips and alerts
 * interleaved newest first, a ping's details and body, filters and paging in the query, the live events endpoint, and
 * bad input answered with a page and a 4xx.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Notification } from '../../../shared/models/notification.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, join, signIn, webAgent } from '../../helpers/web.js';

const T0 = new Date('2026-11-20T10:00:00Z');
const NOW = new Date('2026-11-20T10:05:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const RID = '0d7a3d4e-7c1e-4d2b-9a8e-1f2a3b4c5d6e';

/** A ping as stored, with the defaults of an HTTP GET. */
function pingOf(checkId: string, n: number, fields: Partial<PingDoc> = {}): PingDoc {
  return { checkId, n, created: at(n), kind: 'success', scheme: 'http', remoteAddr: '203.0.113.7', method: 'GET', ua: 'curl/8.5.0', body: null, exitStatus: null, rid: null, ...fields };
}

/** A project whose read-only member is signed in, a check with `nPings`, and the check's path. */
async function setUp(fields: Partial<CheckDoc> = {}, email = 'ro@example.org', pingLogLimit = 100): Promise<{ built: TestProject; agent: supertest.Agent; check: CheckDoc; one: string }> {
  const built = await buildProject({ pingLogLimit });
  await join(built.project._id, await buildUser(email), 'ro');
  const agent = webAgent({}, () => NOW);
  await signIn(agent, email);
  const check = await buildCheck(built, { name: 'nightly backup', ...fields });
  return { built, agent, check, one: `/projects/${built.project._id}/checks/${check._id}/` };
}

/** The ids and classes of the event rows of a page, in order. */
const rowsOf = (html: string) => [...html.matchAll(/<tr (?:id="([^"]+)" )?class="event ([a-z-]+)/g)].map((m) => m[1] ?? m[2]);

describe('the check page: events', () => {
  it('interleaves pings, flips and alerts newest first, with kind, duration, run id, source, user agent and body', async () => {
    const { built, agent, check, one } = await setUp({ nPings: 4, status: 'down', lastPing: at(120) });
    await Ping.insertMany([
      pingOf(check._id, 1, { kind: 'start', rid: RID, created: at(0) }),
      pingOf(check._id, 2, { kind: 'log', created: at(10), method: 'POST', body: Buffer.from('step 1 done') }),
      pingOf(check._id, 3, { created: at(90), rid: RID, scheme: 'https' }),
      pingOf(check._id, 4, { kind: 'fail', created: at(120), exitStatus: 3 }),
    ]);
    await Flip.create({ checkId: check._id, created: at(120), recorded: at(120), oldStatus: 'up', newStatus: 'down', reason: 'fail' });
    const channel = await buildChannel(built, { name: 'ops mail' });
    await Notification.create({ _id: randomUUID(), flipId: 'f1', checkId: check._id, channelId: channel._id, status: 'down', flipCreated: at(120), reason: 'fail', state: 'delivered', error: '', attempts: 1, attemptLog: [], created: at(121), delivered: at(122), updated: at(122) });
    const page = (await agent.get(one)).text;
    expect(rowsOf(page)).to.deep.equal(['event-notification', 'event-flip', 'ping-4', 'ping-3', 'ping-2', 'ping-1']);
    expect(page).to.contain('<span class="ping-kind">exit status 3</span>').and.contain('<span class="ping-kind">log</span>');
    expect(page).to.contain('<span class="ping-kind">success</span> <span class="duration" title="since its start">after 1 min 30 s</span>');
    expect(page).to.contain(`HTTPS GET from 203.0.113.7<br><span class="rid">run ${RID}</span><br><span class="ua">curl/8.5.0</span>`);
    expect(page).to.contain('HTTP POST from 203.0.113.7').and.contain('<code>step 1 done</code>');
    expect(page).to.contain(`<a href="${one}pings/2/">#2</a>`).and.contain('<time datetime="2026-11-20T10:00:10.000Z" title="2026-11-20 10:00:10 UTC">4 minutes ago</time>');
    expect(page).to.contain('down alert to ops mail: delivered').and.contain('up → down</span> (fail)');
    expect(page).to.contain('<p class="check-state" id="check-state" aria-live="polite">down since 3 minutes ago</p>');
  });

  it('escapes what a job sent and says "binary" for a body that is not UTF-8, in the list and the details', async () => {
    const { agent, check, one } = await setUp({ nPings: 2 });
    const script = '<script>alert(1)</script>';
    await Ping.insertMany([
      pingOf(check._id, 1, { body: Buffer.from([0x66, 0xff, 0x00, 0xc3]) }),
      pingOf(check._id, 2, { body: Buffer.from(script), ua: script, method: 'POST' }),
    ]);
    const page = (await agent.get(one)).text;
    expect(page).not.to.contain(script);
    expect(page).to.contain('<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>').and.contain('<span class="ua">&lt;script&gt;').and.contain('<code>binary, 4 bytes</code>');
    const details = await agent.get(`${one}pings/2/`);
    expect(details.text).not.to.contain(script);
    expect(details.text).to.contain('<pre id="ping-body" tabindex="0">&lt;script&gt;alert(1)&lt;/script&gt;</pre>');
    expect((await agent.get(`${one}pings/1/`)).text).to.contain('<p id="ping-body">binary, 4 bytes: download the original to read it.</p>');
  });

  it('stores a real POST ping with a multi-line body, shows it in the list and details, and downloads it as an attachment', async () => {
    const { agent, check, one } = await setUp();
    const body = 'backup done\n12 files\n3.4 GB';
    expect((await agent.post(`/ping/${check._id}`).set('user-agent', 'curl/8.5.0').type('text').send(body)).status).to.equal(200);
    const page = (await agent.get(one)).text;
    expect(page).to.contain('id="ping-1"').and.contain(`<code>${body}</code>`).and.contain('<span class="ua">curl/8.5.0</span>');
    const details = (await agent.get(`${one}pings/1/`)).text;
    expect(details).to.contain(`<pre id="ping-body" tabindex="0">${body}</pre>`).and.contain('<dd id="ping-source">HTTP POST from');
    const download = await agent.get(`${one}pings/1/body`).buffer(true);
    expect([download.headers['content-type'], download.headers['content-disposition']]).to.deep.equal(['application/octet-stream', 'attachment; filename="ping-1.bin"']);
    expect(download.body.toString()).to.equal(body);
  });

  it("shows an email ping's subject, text part, HTML part as text (never as HTML) and raw message", async () => {
    const { agent, check, one } = await setUp({ nPings: 1 });
    const raw = [
      'From: cron@example.org', 'To: x@hc.example.org', 'Subject: Backup <b>OK</b>', 'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="B"', '',
      '--B', 'Content-Type: text/plain', '', 'all good', '--B', 'Content-Type: text/html', '', '<p>all <b>good</b></p><script>alert(1)</script><img src=x onerror=alert(2)>', '--B--', '',
    ].join('\r\n');
    await Ping.create(pingOf(check._id, 1, { scheme: 'email', method: '', ua: 'Email from cron@example.org', body: Buffer.from(raw) }));
    const page = (await agent.get(one)).text;
    expect(page).to.contain('<td class="source">Email from cron@example.org</td>');
    const details = (await agent.get(`${one}pings/1/`)).text;
    expect(details).to.contain('<dd id="email-subject">Backup &lt;b&gt;OK&lt;/b&gt;</dd>').and.contain('<pre id="email-text" tabindex="0">all good</pre>');
    expect(details).to.contain('<pre id="email-html" tabindex="0">all good\n\n[x]</pre>');
    expect(details).not.to.contain('<script>alert').and.not.to.contain('onerror=alert(2)>');
    expect(details).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect((await agent.get(`${one}pings/1/body`)).headers['content-disposition']).to.equal('attachment; filename="ping-1.eml"');
  });

  it('filters by kind in the query and pages back with a before cursor, 50 pings a page on the check page and 100 on the log', async () => {
    const { agent, check, one } = await setUp({ nPings: 120 }, 'ro@example.org', 1000);
    await Ping.insertMany(Array.from({ length: 120 }, (_, i) => pingOf(check._id, i + 1, { kind: i % 10 === 0 ? 'fail' : 'success' })));
    await Flip.create({ checkId: check._id, created: at(30.5), recorded: at(30.5), oldStatus: 'up', newStatus: 'down', reason: 'fail' });
    const first = (await agent.get(one)).text;
    expect(rowsOf(first).filter((r) => r.startsWith('ping-'))).to.have.length(50);
    expect(first).to.contain(`href="${one}?before=71#events" id="older-events"`);
    const older = rowsOf((await agent.get(`${one}?before=71`)).text);
    expect(older.slice(0, 2)).to.deep.equal(['ping-70', 'ping-69']);
    expect(rowsOf((await agent.get(`${one}?before=41`)).text)).to.include('event-flip');
    const fails = rowsOf((await agent.get(`${one}?kind=fail`)).text);
    expect(fails).to.deep.equal(['ping-111', 'ping-101', 'ping-91', 'ping-81', 'ping-71', 'ping-61', 'ping-51', 'ping-41', 'ping-31', 'ping-21', 'ping-11', 'ping-1']);
    expect(rowsOf((await agent.get(`${one}?kind=flips`)).text)).to.deep.equal(['event-flip']);
    const log = (await agent.get(`${one}log/?before=101`)).text;
    expect(rowsOf(log).filter((r) => r.startsWith('ping-'))).to.have.length(100);
    expect(log).to.contain(`href="${one}log/?before=1#events"`);
  });

  it('answers bad input with a page and a message: an unknown kind, a bad cursor, a ping that does not exist or was pruned', async () => {
    const { agent, check, one } = await setUp({ nPings: 1001 }, 'ro@example.org', 1000);
    await Ping.insertMany([pingOf(check._id, 1), pingOf(check._id, 1001)]);
    const expectPage = async (path: string, status: number, message: string) => {
      const res = await agent.get(path);
      expect([res.status, res.type]).to.deep.equal([status, 'text/html']);
      expect(res.text).to.contain(message);
    };
    await expectPage(`${one}?kind=nonsense`, 400, 'Kind must be one of success, fail, start, log, ignored, flips, notifications.');
    await expectPage(`${one}?before=abc`, 400, 'Before must be a ping number.');
    await expectPage(`${one}log/?kind=flips&older=soon`, 400, 'Older must be a moment');
    await expectPage(`${one}pings/999999/`, 404, 'No ping number 999999 is kept for this check');
    await expectPage(`${one}pings/abc/`, 404, 'No ping number abc is kept');
    await expectPage(`${one}pings/1/`, 404, 'it may have been pruned');
    await expectPage(`${one}pings/1/body`, 404, 'it may have been pruned');
    expect((await agent.get(`${one}pings/1001/`)).status).to.equal(200);
    expect((await agent.get(`${one}events?since=x&after=0`)).status).to.equal(400);
  });

  it('answers the live script with the events past its cursor, the next cursor and the state in words', async () => {
    const { agent, check, one } = await setUp({ nPings: 2, status: 'up', lastPing: at(2), timeout: 3600 });
    await Ping.insertMany([pingOf(check._id, 1), pingOf(check._id, 2, { body: Buffer.from('<i>new</i>') })]);
    const page = (await agent.get(one)).text;
    const live = /data-events="([^"]+)"/.exec(page)?.[1].replaceAll('&amp;', '&');
    expect(live).to.equal(`${one}events?since=2&after=${at(1).getTime()}`);
    const none = (await agent.get(live!)).body;
    expect(none).to.deep.equal({ html: '', next: `since=2&after=${at(1).getTime()}`, status: 'up', state: 'up, last ping 4 minutes ago',
      facts: { last_ping: `${at(2).toISOString().slice(0, 19).replace('T', ' ')} UTC`, n_pings: '2' },
    });
    await Check.updateOne({ _id: check._id }, { $set: { nPings: 3 } });
    await Ping.create(pingOf(check._id, 3, { kind: 'start', created: at(200) }));
    const news = (await agent.get(`${one}events?since=2&after=0`)).body;
    expect(rowsOf(news.html)).to.deep.equal(['ping-3']);
    expect(news.next).to.equal('since=3&after=0');
  });

  it('says the state in words: new, paused, running', async () => {
    const { agent, one } = await setUp();
    expect((await agent.get(one)).text).to.contain('id="check-state" aria-live="polite">new, never pinged</p>');
    const paused = await setUp({ status: 'paused', lastPing: at(0) }, 'paused@example.org');
    expect((await paused.agent.get(paused.one)).text).to.contain('aria-live="polite">paused</p>');
    const running = await setUp({ status: 'up', lastPing: at(0), lastStart: at(180), grace: 3600 }, 'running@example.org');
    expect((await running.agent.get(running.one)).text).to.contain('aria-live="polite">running, started 2 minutes ago</p>');
  });
});
