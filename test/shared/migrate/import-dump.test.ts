/** Importing a dump a real Healthchecks wrote (shared/migrate/, docs/migrating.md): every old URL and key keeps working. */
import { expect } from 'chai';
import { config } from '../../../shared/config.js';
import { Check } from '../../../shared/models/check.js';
import { Channel } from '../../../shared/models/channel.js';
import { Ping } from '../../../shared/models/ping.js';
import { applyDeadlines } from '../../../shared/deadlines/process.js';
import { http } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { pendingTimer } from '../../helpers/deadlines.js';
import { storedCheck, storedFlips } from '../../helpers/pings.js';
import { BACKUPS, CRON, importFixture, NIGHTLY, RECORDED_AT, recordedJson, records, SECRETS } from '../../helpers/healthchecks-fixture.js';

/** The reference's stored deadline (`alert_after`) of a check in the dump. */
const alertAfter = (code: string) => new Date(records('api.check').find((r) => r.fields.code === code)!.fields.alert_after as string);

describe('import healthchecks: a dump of a real Healthchecks', () => {
  beforeEach(() => importFixture());

  it('pings the same check at its old UUID URL', async () => {
    const res = await http().post(`/ping/${NIGHTLY}`).send('after the move');
    expect([res.status, res.text]).to.deep.equal([200, 'OK']);
    const check = await storedCheck(NIGHTLY);
    expect(check.nPings).to.equal(6);
    expect((await Ping.findOne({ checkId: NIGHTLY, n: 6 }).lean())?.body?.toString()).to.equal('after the move');
  });

  it('pings the same check at its old slug URL (project ping key and slug)', async () => {
    const res = await http().get(`/ping/${SECRETS.ping_keys[BACKUPS]}/nightly-backup`);
    expect([res.status, res.text]).to.deep.equal([200, 'OK']);
    expect((await storedCheck(NIGHTLY)).nPings).to.equal(6);
  });

  it('lists the same checks with the same fields through /api/v3/checks/ with the old read-write key', async () => {
    const res = await http(() => RECORDED_AT).get('/api/v3/checks/').set('X-Api-Key', SECRETS.api_keys[BACKUPS].rw);
    expect(res.status).to.equal(200);
    const theirs = recordedJson('/api/v3/checks/', config.baseUrl).checks;
    const sorted = (c: any) => ({ ...c, channels: c.channels.split(',').sort().join(',') });
    expect(res.body.checks.map(sorted)).to.deep.equal(theirs.map(sorted));
  });

  it('accepts the old read-only key for reading and refuses it for writing', async () => {
    const key = SECRETS.api_keys[BACKUPS].ro!;
    expect((await http().get('/api/v3/checks/').set('X-Api-Key', key)).body.checks).to.have.length(6);
    expect((await http().post(`/api/v3/checks/${NIGHTLY}/pause`).set('X-Api-Key', key)).status).to.equal(401);
  });

  it('serves the project metrics (Prometheus) at the old read-only key URL', async () => {
    const res = await http(() => RECORDED_AT).get(`/projects/${BACKUPS}/metrics/${SECRETS.api_keys[BACKUPS].ro}`);
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('hc_check_up{name="Nightly backup"');
  });

  it('refuses a key the old site never issued with the same prefix', async () => {
    const forged = `${SECRETS.api_keys[BACKUPS].rw.slice(0, 12)}${'x'.repeat(20)}`;
    expect((await http().get('/api/v3/checks/').set('X-Api-Key', forged)).status).to.equal(401);
  });

  it('answers the old project badge URL (signed with the old secret) as the reference did', async () => {
    const badges = recordedJson('/api/v3/badges/', config.baseUrl).badges;
    const path = new URL(badges.prod.json3 as string).pathname;
    // When the reference answered it: the cron check of the tag was past its deadline.
    const res = await http(() => new Date('2026-12-01T23:20:00Z')).get(path);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(recordedJson('/badge/backups-badge-0001/bx9zD9B1/prod.json', config.baseUrl));
  });

  it('answers the old per-check badge URL', async () => {
    const badge = recordedJson(`/api/v3/checks/${NIGHTLY}`, config.baseUrl).badge_url as string;
    const res = await http(() => RECORDED_AT).get(new URL(badge).pathname);
    expect([res.status, res.type]).to.deep.equal([200, 'image/svg+xml']);
    expect(Buffer.from(res.body as Buffer).toString()).to.contain('<svg');
  });

  it('stores the deadline the reference gave each up check, and schedules its job', async () => {
    for (const code of [NIGHTLY, CRON]) {
      expect((await storedCheck(code)).deadline?.toISOString()).to.equal(alertAfter(code).toISOString());
      expect(await pendingTimer(code)).to.not.equal(undefined);
    }
  });

  it('puts an up check down at the reference deadline, not before', async () => {
    const at = alertAfter(NIGHTLY);
    const deps = (now: Date) => ({ queues: testContext().queues, clock: () => now });
    expect((await applyDeadlines(deps(new Date(at.getTime() - 1000)), [NIGHTLY])).get(NIGHTLY)).to.equal('early');
    expect((await applyDeadlines(deps(new Date(at.getTime() + 1000)), [NIGHTLY])).get(NIGHTLY)).to.equal('flipped');
    const down = (await storedFlips(NIGHTLY)).filter((f) => f.newStatus === 'down' && f.reason === 'timeout');
    expect(down.map((f) => f.created.toISOString())).to.deep.equal([at.toISOString()]);
  });

  it('keeps channels of kinds we have with their settings and assignments, and lists none half-made', async () => {
    const channels = await Channel.find({ projectId: BACKUPS }).sort({ created: 1 }).lean();
    expect(channels.map((c) => [c.kind, c.name])).to.deep.equal([['email', 'Ops mail'], ['webhook', 'Hook'], ['slack', 'Slack'], ['shell', 'Shell']]);
    expect(JSON.parse(channels[0].value)).to.deep.include({ address: 'ops@example.org' });
    expect(JSON.parse(channels[1].value)).to.deep.include({ url_down: 'http://127.0.0.1:9/down', body_down: '$NAME is $STATUS' });
    expect((await Check.findById(NIGHTLY).lean())?.channels).to.have.length(4);
  });
});
