/**
 * The checks list (server/pages/checks/list/check-list.ts, list-query.ts) and status at a glance (glance.ts) over HTTP: search,
 * tag and status filters, sorts, pages, bad parameters as a 400 page, integration toggles and pause from the list
 * (CSRF and roles), checks.json's ETag, the project list's counts and order, the tab title.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { deadlineOf, liveStatus } from '../../../shared/domain/status.js';
import { shownStatusOf, LIST_STATUSES } from '../../../server/pages/checks/list/list-query.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

const HOUR_MS = 3_600_000;

/** A project with a member of `role` signed in, and its list's path. */
async function setUp(role: 'rw' | 'ro' = 'rw', email = `${role}@example.org`): Promise<{ built: TestProject; agent: supertest.Agent; base: string }> {
  const built = await buildProject({ name: 'Backups' });
  await join(built.project._id, await buildUser(email), role);
  const agent = webAgent();
  await signIn(agent, email);
  return { built, agent, base: `/projects/${built.project._id}/` };
}

/** The check names of a list page's rows, in order. */
function namesOf(html: string): string[] {
  return [...html.matchAll(/<a href="\/projects\/[^/]+\/checks\/[^/]+\/">([^<]*)<\/a>/g)].map((m) => m[1]);
}

/** A check inserted with its stored deadline, as the check store keeps it (the list's queries read it). */
async function stored(built: TestProject, fields: Partial<CheckDoc>): Promise<CheckDoc> {
  const check = await buildCheck(built, fields);
  const deadline = deadlineOf(check);
  await Check.updateOne({ _id: check._id }, { $set: { deadline } });
  return { ...check, deadline };
}

/** Checks of every status: a down (db), a late one (web db), an up (web), a paused, a new and a running one. */
async function mixed(built: TestProject): Promise<Record<string, CheckDoc>> {
  const now = Date.now();
  return {
    down: await stored(built, { name: 'delta', slug: 'delta', tags: 'db', status: 'down', created: new Date(now - 6000) }),
    late: await stored(built, { name: 'alpha', tags: 'web db', status: 'up', timeout: 3600, grace: 3600, lastPing: new Date(now - 1.5 * HOUR_MS), created: new Date(now - 5000) }),
    up: await stored(built, { name: 'charlie', tags: 'web', status: 'up', lastPing: new Date(now - 60_000), created: new Date(now - 4000) }),
    paused: await stored(built, { name: 'bravo', status: 'paused', created: new Date(now - 3000) }),
    fresh: await stored(built, { name: 'echo', status: 'new', created: new Date(now - 2000) }),
    running: await stored(built, { name: 'foxtrot', status: 'up', lastPing: new Date(now - 120_000), lastStart: new Date(now - 5000), lastDurationMs: 42_000, created: new Date(now - 1000) }),
  };
}

describe('checks list', () => {
  it('searches by name, slug and UUID, filters by tags and status, and sorts, all in the URL', async () => {
    const { built, agent, base } = await setUp();
    const c = await mixed(built);
    expect(namesOf((await agent.get(base)).text)).to.deep.equal(['delta', 'alpha', 'charlie', 'bravo', 'echo', 'foxtrot']);
    expect(namesOf((await agent.get(base).query({ q: 'CHAR' })).text)).to.deep.equal(['charlie']);
    expect(namesOf((await agent.get(base).query({ q: c.fresh._id })).text)).to.deep.equal(['echo']);
    expect(namesOf((await agent.get(`${base}?tag=db&tag=web`)).text)).to.deep.equal(['alpha']);
    expect(namesOf((await agent.get(base).query({ tag: 'db' })).text)).to.deep.equal(['delta', 'alpha']);
    expect(namesOf((await agent.get(base).query({ status: 'grace' })).text)).to.deep.equal(['alpha']);
    expect(namesOf((await agent.get(base).query({ status: 'started' })).text)).to.deep.equal(['foxtrot']);
    expect(namesOf((await agent.get(base).query({ sort: 'name' })).text)).to.deep.equal(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']);
    expect(namesOf((await agent.get(base).query({ sort: 'down' })).text)).to.deep.equal(['delta', 'alpha', 'foxtrot', 'charlie', 'echo', 'bravo']);
    expect(namesOf((await agent.get(base).query({ sort: 'last_ping' })).text).slice(0, 3)).to.deep.equal(['charlie', 'foxtrot', 'alpha']);
    const page = (await agent.get(base).query({ sort: 'created' })).text;
    // The tag chips, coloured by their worst status; the running mark and the last run; human schedule and grace.
    expect(page).to.match(/class="chip status-down" href="[^"]*\?tag=db"/).and.match(/class="chip status-grace" href="[^"]*\?tag=web"/);
    expect(page).to.contain('every 1 hour').and.contain('grace 1 hour').and.contain('every 1 day').and.contain('42 s');
    expect(page).to.match(new RegExp(`data-check="${c.running._id}"[\\s\\S]*?data-field="running"[^>]*title="a run is in progress" >`));
    expect(page).to.contain('Showing 1–6 of 6');
  });

  it('filters each status exactly as the live status (edges: late, running, overdue but not yet flipped)', async () => {
    const { built, agent, base } = await setUp();
    const now = Date.now();
    const ago = (s: number): Date => new Date(now - s * 1000);
    const made = [
      await stored(built, { name: 'up-fresh', status: 'up', timeout: 3600, grace: 600, lastPing: ago(60) }),
      await stored(built, { name: 'up-no-ping', status: 'up' }),
      await stored(built, { name: 'late-just', status: 'up', timeout: 3600, grace: 600, lastPing: ago(3610) }),
      await stored(built, { name: 'late-long-grace', status: 'up', timeout: 60, grace: 86_400, lastPing: ago(3600) }),
      await stored(built, { name: 'overdue-unflipped', status: 'up', timeout: 3600, grace: 600, lastPing: ago(4300) }),
      await stored(built, { name: 'down-stored', status: 'down' }),
      await stored(built, { name: 'run-up', status: 'up', timeout: 3600, grace: 600, lastPing: ago(100), lastStart: ago(30) }),
      await stored(built, { name: 'run-late', status: 'up', timeout: 60, grace: 600, lastPing: ago(100), lastStart: ago(30) }),
      await stored(built, { name: 'run-overrun', status: 'up', timeout: 3600, grace: 60, lastPing: ago(100), lastStart: ago(90) }),
      await stored(built, { name: 'run-new', status: 'new', grace: 600, lastStart: ago(30) }),
      await stored(built, { name: 'run-new-overrun', status: 'new', grace: 60, lastStart: ago(90) }),
      await stored(built, { name: 'paused', status: 'paused' }),
      await stored(built, { name: 'paused-run', status: 'paused', grace: 600, lastStart: ago(30) }),
      await stored(built, { name: 'paused-overrun', status: 'paused', grace: 60, lastStart: ago(90) }),
      await stored(built, { name: 'fresh', status: 'new' }),
    ];
    const at = new Date();
    const shown = (check: CheckDoc): string => {
      const live = liveStatus(check, at);
      return shownStatusOf({ live, running: check.lastStart !== null && live !== 'down' });
    };
    const page = (await agent.get(base)).text;
    for (const status of LIST_STATUSES) {
      const expected = made.filter((c) => shown(c) === status).map((c) => c.name).sort();
      expect(namesOf((await agent.get(base).query({ status, sort: 'name' })).text), status).to.deep.equal(expected);
      expect(page, status).to.contain(`value="${status}" >${status} <span class="count">(${expected.length})</span>`);
    }
    const trouble = ['down', 'grace', 'started', 'up', 'new', 'paused'];
    const downFirst = [...made].sort((a, b) => trouble.indexOf(shown(a)) - trouble.indexOf(shown(b)) || (a.name < b.name ? -1 : 1)).map((c) => c.name);
    expect(namesOf((await agent.get(base).query({ sort: 'down' })).text)).to.deep.equal(downFirst);
  });

  it('pages the down-first sort across the statuses, and reads tags and searches literally', async () => {
    const { built, agent, base } = await setUp();
    const now = Date.now();
    await Check.insertMany(Array.from({ length: 150 }, (_, i) => ({
      _id: randomUUID(), projectId: built.project._id, badgeKey: randomUUID(), created: new Date(now + i), name: `job-${String(i).padStart(3, '0')}`,
      status: i % 3 === 0 ? 'down' : i % 3 === 1 ? 'paused' : 'new', tags: i % 2 ? 'a.b x' : 'ab',
    })));
    const first = namesOf((await agent.get(base).query({ sort: 'down' })).text);
    const second = namesOf((await agent.get(base).query({ sort: 'down', page: 2 })).text);
    expect(first.slice(0, 2)).to.deep.equal(['job-000', 'job-003']);
    expect(first[50]).to.equal('job-002');
    expect(second[0]).to.equal('job-001');
    expect(second.at(-1)).to.equal('job-148');
    expect(new Set([...first, ...second]).size).to.equal(150);
    expect((await agent.get(base).query({ tag: 'a.b', sort: 'down' })).text).to.contain('of 75 (150 in the project)');
    expect((await agent.get(base).query({ tag: 'a', sort: 'down' })).text).to.contain('No check matches.');
    expect((await agent.get(base).query({ tag: 'ab x', sort: 'down' })).text).to.contain('No check matches.');
    expect((await agent.get(base).query({ q: 'job-1.', sort: 'down' })).text).to.contain('No check matches.');
    const page = (await agent.get(base).query({ sort: 'created' })).text;
    expect(page).to.match(/class="chip status-down" href="[^"]*\?tag=ab"/).and.match(/class="chip status-down" href="[^"]*\?tag=x"/);
  });

  it('pages 100 at a time with counts', async () => {
    const { built, agent, base } = await setUp();
    const now = Date.now();
    await Check.insertMany(Array.from({ length: 250 }, (_, i) => ({
      _id: randomUUID(), projectId: built.project._id, badgeKey: randomUUID(), created: new Date(now + i), name: `job-${String(i).padStart(3, '0')}`,
    })));
    const second = await agent.get(base).query({ page: 2 });
    expect(second.text).to.contain('Showing 101–200 of 250');
    expect(namesOf(second.text)[0]).to.equal('job-100');
    expect((await agent.get(base).query({ page: 3, sort: 'name' })).text).to.contain('Showing 201–250 of 250').and.contain('rel="prev"');
    expect((await agent.get(base).query({ q: 'job-24', sort: 'name' })).text).to.contain('Showing 1–10 of 10 (250 in the project)');
  });

  it('answers an unknown sort, status or a page that is no number with a 400 page naming it', async () => {
    const { built, agent, base } = await setUp();
    await buildCheck(built, { name: 'one' });
    for (const [query, message] of [
      [{ sort: 'size' }, 'Unknown sort “size”'], [{ status: 'late' }, 'Unknown status filter “late”'],
      [{ page: '0' }, 'No page “0”'], [{ page: 'x' }, 'No page “x”'],
    ] as const) {
      const res = await agent.get(base).query(query);
      expect(res.status, JSON.stringify(query)).to.equal(400);
      expect(res.text).to.contain(message);
    }
  });

  it('toggles an integration from the list, back to the same list URL, refusing a bad token, a read-only member and another project\'s channel', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'backup', tags: 'db' });
    const channel = await buildChannel(built, { name: 'ops mail' });
    const page = (await agent.get(base).query({ tag: 'db', sort: 'name' })).text;
    const _csrf = csrfOf(page);
    expect(page).to.contain('aria-pressed="false" title="ops mail (email)" aria-label="ops mail for backup"');
    const toggle = `${base}list/${check._id}/channels/${channel._id}`;
    const on = await agent.post(toggle).type('form').send({ _csrf, on: '1', back: '?tag=db&sort=name' });
    expect(on.status).to.equal(303);
    expect(on.headers.location).to.equal(`${base}?tag=db&sort=name`);
    expect((await Check.findById(check._id).lean())?.channels).to.deep.equal([channel._id]);
    const off = await agent.post(toggle).set('accept', 'application/json').type('form').send({ _csrf, on: '0' });
    expect(off.body).to.deep.equal({ on: false });
    expect((await Check.findById(check._id).lean())?.channels).to.deep.equal([]);
    expect((await agent.post(toggle).type('form').send({ _csrf: 'forged', on: '1' })).status).to.equal(403);
    const other = await buildChannel(await buildProject({ name: 'other' }));
    expect((await agent.post(`${base}list/${check._id}/channels/${other._id}`).type('form').send({ _csrf, on: '1' })).status).to.equal(400);
    const ro = webAgent();
    await join(built.project._id, await buildUser('ro@example.org'), 'ro');
    await signIn(ro, 'ro@example.org');
    const roPage = (await ro.get(base)).text;
    expect(roPage).to.not.contain('formaction=').and.not.contain('/pause"');
    expect((await ro.post(toggle).type('form').send({ _csrf: csrfOf(roPage), on: '1' })).status).to.equal(403);
    expect((await Check.findById(check._id).lean())?.channels).to.deep.equal([]);
  });

  it('pauses a check from the list through the service', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'backup', status: 'up', lastPing: new Date() });
    const _csrf = csrfOf((await agent.get(base)).text);
    const res = await agent.post(`${base}list/${check._id}/pause`).type('form').send({ _csrf, back: '?status=up' });
    expect(res.headers.location).to.equal(`${base}?status=up`);
    expect(await Check.findById(check._id).lean()).to.include({ status: 'paused', rev: 1 });
  });

  it('answers glance.json with the down count over the user\'s projects only, an ETag and 304 while nothing changed', async () => {
    const { built, agent } = await setUp();
    const check = await buildCheck(built, { name: 'up-one', status: 'up', lastPing: new Date() });
    await buildCheck(await buildProject({ name: 'Not mine' }), { name: 'theirs', status: 'down' });
    const first = await agent.get('/projects/glance.json');
    expect(first.body).to.deep.equal({ down: 0, checks: [] });
    const same = await agent.get('/projects/glance.json').set('if-none-match', first.headers.etag);
    expect(same.status).to.equal(304);
    await Check.updateOne({ _id: check._id }, { $set: { status: 'down', deadline: null } });
    const changed = await agent.get('/projects/glance.json').set('if-none-match', first.headers.etag);
    expect(changed.status).to.equal(200);
    expect(changed.body).to.deep.equal({ down: 1, checks: [] });
    expect((await webAgent().get('/projects/glance.json')).status).to.be.oneOf([302, 303, 401]);
  });

  it('answers checks.json with an ETag, 304 while nothing changed, and the down count', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: 'up-one', status: 'up', lastPing: new Date() });
    await buildCheck(built, { name: 'down-one', status: 'down' });
    const live = `${base}checks.json?ids=${check._id}`;
    const first = await agent.get(live);
    expect(first.body).to.deep.include({ down: 1 });
    expect(first.body.checks[0]).to.include({ id: check._id, status: 'up', running: false });
    const etag = first.headers.etag;
    const same = await agent.get(live).set('if-none-match', etag);
    expect(same.status).to.equal(304);
    await Check.updateOne({ _id: check._id }, { $set: { lastStart: new Date() } });
    const changed = await agent.get(live).set('if-none-match', etag);
    expect(changed.status).to.equal(200);
    expect(changed.body.checks[0]).to.include({ status: 'started', running: true });
  });

  it('puts the down count in the title and a red favicon, and lists projects troubled first with their counts', async () => {
    const { built, agent, base } = await setUp();
    await mixed(built);
    const page = (await agent.get(base)).text;
    expect(page).to.contain('<title data-title="Backups · ').and.match(/>1 down · Backups · /).and.contain('href="/static/favicon-down.svg"');
    const calm = await buildProject({ name: 'Alpha calm' });
    const user = await User.findOne({ email: 'rw@example.org' }).lean<UserDoc>();
    await join(calm.project._id, user!, 'rw');
    const list = (await agent.get('/projects/')).text;
    expect(list).to.match(/data-count="down"[^>]*>1 down/).and.match(/data-count="grace"[^>]*>1 late/).and.match(/data-count="paused"[^>]*>1 paused/);
    expect(list.indexOf('>Backups</a>')).to.be.below(list.indexOf('>Alpha calm</a>'));
    expect(list).to.contain('<title data-title="Projects · ').and.match(/>1 down · Projects/);
    expect((await agent.get('/projects/go').query({ project: built.project._id })).headers.location).to.equal(base);
  });
});
