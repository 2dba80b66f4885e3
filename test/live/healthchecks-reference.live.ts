/**
 * Against a running real Healthchecks (`npm run test:reference`, not in the default suite: it needs the reference, see
 * docs/migrating.md): data made there through its own API, dumped with `manage.py dumpdata`, imported here; then every old
 * URL, key and password works here, and `import healthchecks-api` reads the same checks through its API.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportProject } from '../../shared/migrate/export.js';
import { config } from '../../shared/config.js';
import { importDump, importPlan } from '../../shared/migrate/import.js';
import { Check } from '../../shared/models/check.js';
import { planImport } from '../../shared/migrate/plan.js';
import { readAccount } from '../../shared/migrate/api-source.js';
import { applyDeadlines } from '../../shared/deadlines/process.js';
import { http } from '../helpers/factories.js';
import { testContext } from '../helpers/hooks.js';
import { signIn, webAgent } from '../helpers/web.js';
import { liveReference, manage, refFetch, seedScript, type LiveReference } from '../helpers/live-reference.js';

interface Seed { code: string; rw: string; ro: string; ping_key: string }

const same = (text: string, ref: LiveReference) => JSON.parse(text.replaceAll(ref.url, config.baseUrl));
const sortChannels = (c: any) => ({ ...c, channels: String(c.channels).split(',').sort().join(',') });

describe('live: a real Healthchecks moved here', function () {
  this.timeout(180_000);
  let ref: LiveReference;
  let seed: Seed;
  let dump: string;
  const email = `live-${randomBytes(4).toString('hex')}@example.org`;
  const password = 'an-old-reference-password';

  before(async () => {
    ref = liveReference();
    const out = await manage(ref, ['shell', '-c', seedScript(email, password, true)]);
    seed = JSON.parse(out.split('SEED')[1]) as Seed;
    const create = (body: object) => refFetch(ref, '/api/v3/checks/', { method: 'POST', headers: { 'X-Api-Key': seed.rw, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const simple = await create({ name: 'simple', slug: 'simple', tags: 'live', timeout: 3600, grace: 300, channels: '*' });
    const cron = await create({ name: 'cron', slug: 'cron', schedule: '*/10 * * * *', tz: 'Europe/Riga', grace: 120, channels: '*' });
    const oncal = await create({ name: 'oncalendar', slug: 'oncal', schedule: '*-*-* 06:30:00', tz: 'Asia/Tokyo', grace: 600 });
    await refFetch(ref, new URL(simple.ping_url as string).pathname, { method: 'POST', body: 'simple body' });
    await refFetch(ref, `/ping/${seed.ping_key}/cron`, { method: 'POST', body: 'cron body' });
    await refFetch(ref, `${new URL(oncal.ping_url as string).pathname}/start`);
    await refFetch(ref, new URL(oncal.ping_url as string).pathname, { method: 'POST', body: 'oncalendar body' });
    expect(cron.uuid).to.be.a('string');
    dump = await manage(ref, ['dumpdata', 'auth.user', 'accounts', 'api']);
  });

  beforeEach(() => importDump(dump, ref.secretKey, { queues: testContext().queues, now: new Date() }));

  it('pings the same check at its old UUID and slug URLs', async () => {
    const { checks } = (await (await refFetch(ref, '/api/v3/checks/', { headers: { 'X-Api-Key': seed.rw } })).json()) as { checks: any[] };
    const simple = checks.find((c) => c.slug === 'simple');
    expect((await http().get(new URL(simple.ping_url as string).pathname)).text).to.equal('OK');
    expect((await http().get(`/ping/${seed.ping_key}/simple`)).text).to.equal('OK');
    const here = await http().get(`/api/v3/checks/${simple.uuid}`).set('X-Api-Key', seed.rw);
    expect(here.body.n_pings).to.equal(simple.n_pings + 2);
  });

  it('lists the same checks with the same fields with the old read-write key', async () => {
    const theirs = await refFetch(ref, '/api/v3/checks/', { headers: { 'X-Api-Key': seed.rw } });
    const ours = await http().get('/api/v3/checks/').set('X-Api-Key', seed.rw);
    expect(ours.status).to.equal(200);
    expect(ours.body.checks.map(sortChannels)).to.deep.equal(same(await theirs.text(), ref).checks.map(sortChannels));
  });

  it('answers the old badge URLs as the reference does', async () => {
    const { badges } = (await (await refFetch(ref, '/api/v3/badges/', { headers: { 'X-Api-Key': seed.rw } })).json()) as { badges: Record<string, any> };
    for (const url of [badges.live.json3, badges['*'].json]) {
      const path = new URL(url as string).pathname;
      const theirs = await (await refFetch(ref, path)).json();
      expect((await http().get(path)).body).to.deep.equal(theirs);
    }
  });

  it('signs the user in with the old password', async () => {
    const res = await signIn(webAgent(), email, password);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
  });

  it('puts the up check down at the deadline the reference stored for it', async () => {
    const records = JSON.parse(dump) as { model: string; pk: number; fields: any }[];
    const project = records.find((r) => r.model === 'accounts.project' && r.fields.code === seed.code)!;
    const check = records.find((r) => r.model === 'api.check' && r.fields.project === project.pk && r.fields.slug === 'simple')!;
    const code = check.fields.code as string;
    const at = new Date(check.fields.alert_after as string);
    const deps = (now: Date) => ({ queues: testContext().queues, clock: () => now });
    expect((await applyDeadlines(deps(new Date(at.getTime() - 1000)), [code])).get(code)).to.equal('early');
    expect((await applyDeadlines(deps(new Date(at.getTime() + 1000)), [code])).get(code)).to.equal('flipped');
  });

  it('imports the same checks through the reference’s Management API (healthchecks-api)', async () => {
    const read = await readAccount({ url: ref.url, apiKey: seed.rw, projectId: '11111111-2222-4333-8444-555555555555' });
    const checkIds = read.dump.checks.map((c) => c.fields.code);
    await Check.deleteMany({ _id: { $in: checkIds } });
    const report = await importPlan(planImport(read.dump, undefined), { queues: testContext().queues, now: new Date() });
    expect(report.written?.checksCreated).to.equal(3);
    const ours = await http().get('/api/v3/checks/').set('X-Api-Key', seed.rw);
    const theirs = same(await (await refFetch(ref, '/api/v3/checks/', { headers: { 'X-Api-Key': seed.rw } })).text(), ref);
    expect(ours.body.checks.map((c: any) => [c.uuid, c.name, c.n_pings, c.schedule, c.tz, c.timeout])).to.deep.equal(theirs.checks.map((c: any) => [c.uuid, c.name, c.n_pings, c.schedule, c.tz, c.timeout]));
  });

  it('exports the project back: the reference loads it, and the old key and password work there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hc-reference-'));
    await writeFile(join(dir, 'export.json'), JSON.stringify(await exportProject(seed.code)));
    const db = join(dir, 'hc.sqlite');
    await manage(ref, ['migrate'], db);
    await manage(ref, ['loaddata', join(dir, 'export.json')], db);
    const probe = `
from django.contrib.auth.models import User
from hc.accounts.models import Project
from hc.api.models import Check, Ping
p = Project.objects.for_api_key(${JSON.stringify(seed.rw)}, True, True)
print("PROBE", p is not None and str(p.code), Check.objects.count(), Ping.objects.count(), User.objects.get(email=${JSON.stringify(email)}).check_password(${JSON.stringify(password)}))
`;
    const out = await manage(ref, ['shell', '-c', probe], db);
    expect(out.split('PROBE ')[1]?.trim()).to.equal(`${seed.code} 3 4 True`);
  });
});
