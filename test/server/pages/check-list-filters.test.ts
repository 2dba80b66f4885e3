/**
 * The checks list's query over HTTP (server/pages/checks/list/: check-list.ts, list-query.ts, list-find.ts): several statuses at
 * once, a page past the end shown as the last page, names in natural order across pages, the sort remembered per
 * project, one ping URL per row by uuid or slug, and a page of 100 rows with tags and integrations within 300 KB.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { deadlineOf } from '../../../shared/domain/status.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with a read-write member signed in, and its list's path. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; base: string }> {
  const built = await buildProject({ name: 'Backups' });
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  return { built, agent, base: `/projects/${built.project._id}/` };
}

/** The check names of a list page's rows, in order. */
const namesOf = (html: string): string[] => [...html.matchAll(/<a href="\/projects\/[^/]+\/checks\/[^/]+\/">([^<]*)<\/a>/g)].map((m) => m[1]);

/** A check inserted with its stored deadline, as the check store keeps it. */
async function stored(built: TestProject, fields: Partial<CheckDoc>): Promise<CheckDoc> {
  const check = await buildCheck(built, fields);
  await Check.updateOne({ _id: check._id }, { $set: { deadline: deadlineOf(check) } });
  return check;
}

/** `n` checks named `name(i)`, created in order, inserted through the model. */
async function many(built: TestProject, n: number, fields: (i: number) => Partial<CheckDoc>): Promise<void> {
  const now = Date.now();
  await Check.insertMany(Array.from({ length: n }, (_, i) => ({ _id: randomUUID(), projectId: built.project._id, badgeKey: randomUUID(), created: new Date(now + i), ...fields(i) })));
}

describe('checks list filters', () => {
  it('keeps several statuses at once, from repeated status values, in one URL', async () => {
    const { built, agent, base } = await setUp();
    const now = Date.now();
    await stored(built, { name: 'down one', status: 'down' });
    await stored(built, { name: 'late one', status: 'up', timeout: 3600, grace: 3600, lastPing: new Date(now - 5_400_000) });
    await stored(built, { name: 'up one', status: 'up', lastPing: new Date(now - 60_000) });
    await stored(built, { name: 'paused one', status: 'paused' });
    const names = async (query: string): Promise<string[]> => namesOf((await agent.get(`${base}?${query}&sort=name`)).text);
    expect(await names('status=down&status=grace')).to.deep.equal(['down one', 'late one']);
    expect(await names('status=up&status=paused')).to.deep.equal(['paused one', 'up one']);
    expect(await names('status=grace&status=up&q=one')).to.deep.equal(['late one', 'up one']);
    const page = (await agent.get(`${base}?status=down&status=paused&sort=down`)).text;
    expect(namesOf(page)).to.deep.equal(['down one', 'paused one']);
    expect(page).to.contain('Showing 1–2 of 2 (4 in the project)');
    expect(page).to.match(/value="down" checked>/).and.match(/value="paused" checked>/).and.match(/value="up" >/);
    expect(page).to.contain('href="/projects/' + built.project._id + '/?status=down&amp;status=paused&amp;sort=down&amp;urls=slug"');
  });

  it('shows the last page for a page past the end', async () => {
    const { built, agent, base } = await setUp();
    await many(built, 120, (i) => ({ name: `job ${i}` }));
    const res = await agent.get(base).query({ page: 9, sort: 'created' });
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('Showing 101–120 of 120').and.contain('Page 2 of 2');
    expect(namesOf(res.text)[0]).to.equal('job 100');
    const empty = await agent.get(base).query({ page: 3, q: 'nothing like it', sort: 'created' });
    expect(empty.status).to.equal(200);
    expect(empty.text).to.contain('No check matches.');
  });

  it('sorts names as people read them, across pages: "a" before "B", "check 2" before "check 10"', async () => {
    const { built, agent, base } = await setUp();
    await many(built, 110, (i) => ({ name: `check ${110 - i}` }));
    for (const name of ['B', 'a', 'Check 1b']) await buildCheck(built, { name });
    const first = namesOf((await agent.get(base).query({ sort: 'name' })).text);
    const second = namesOf((await agent.get(base).query({ sort: 'name', page: 2 })).text);
    expect(first.slice(0, 6)).to.deep.equal(['a', 'B', 'check 1', 'Check 1b', 'check 2', 'check 3']);
    expect(first.at(-1)).to.equal('check 97');
    expect(second).to.deep.equal(Array.from({ length: 13 }, (_, i) => `check ${98 + i}`));
  });

  it('remembers the sort per project: a list URL without one goes to the last chosen', async () => {
    const { built, agent, base } = await setUp();
    await buildCheck(built, { name: 'b' });
    await buildCheck(built, { name: 'a' });
    const other = await buildProject({ name: 'Other' });
    await join(other.project._id, (await User.findOne({ email: 'rw@example.org' }).lean<UserDoc>())!, 'rw');
    expect((await agent.get(base)).status).to.equal(200);
    expect(namesOf((await agent.get(base).query({ sort: 'name' })).text)).to.deep.equal(['a', 'b']);
    const back = await agent.get(base).query({ tag: 'x' });
    expect(back.status).to.equal(303);
    expect(back.headers.location).to.equal(`${base}?tag=x&sort=name`);
    expect((await agent.get(`/projects/${other.project._id}/`)).status, 'another project keeps its own').to.equal(200);
    expect(namesOf((await agent.get(base).query({ sort: 'created' })).text)).to.deep.equal(['b', 'a']);
    expect((await agent.get(base)).status, 'created chosen again').to.equal(200);
  });

  it("shows one ping URL per row, by uuid or by slug (?urls=slug) with the varying part emphasised, to writers only", async () => {
    const { built, agent, base } = await setUp();
    const slugged = await buildCheck(built, { name: 'backup', slug: 'nightly-backup' });
    const plain = await buildCheck(built, { name: 'reports' });
    const rowOf = (page: string, id: string): string => /<tr data-check="[^"]+"[\s\S]*?<\/tr>/.exec(page.slice(page.indexOf(`data-check="${id}"`) - 9))?.[0] ?? '';
    const byUuid = (await agent.get(base)).text;
    expect(rowOf(byUuid, slugged._id)).to.contain(`/ping/</span><b>${slugged._id}</b>`).and.not.contain(`/${built.pingKey}/`);
    expect([...byUuid.matchAll(/class="copy" data-copy="[^"]+"/g)]).to.have.length(2);
    const bySlug = (await agent.get(base).query({ urls: 'slug' })).text;
    expect(rowOf(bySlug, slugged._id)).to.contain(`/ping/${built.pingKey}/</span><b>nightly-backup</b>`).and.contain(`data-copy="http`);
    expect(rowOf(bySlug, plain._id), 'no slug: its uuid').to.contain(`<b>${plain._id}</b>`);
    await join(built.project._id, await buildUser('reader@example.org'), 'ro');
    const reader = webAgent();
    await signIn(reader, 'reader@example.org');
    expect((await reader.get(base)).text).to.contain('backup').and.not.to.contain('/ping/').and.not.to.contain(built.pingKey);
  });

  it('sends a page of 100 rows with two tags and three integrations each in at most 300 KB of HTML', async () => {
    const { built, agent, base } = await setUp();
    const channels = [await buildChannel(built, { name: 'ops mail' }), await buildChannel(built, { name: 'hook', kind: 'webhook' }), await buildChannel(built, { name: 'chat', kind: 'slack' })];
    await many(built, 150, (i) => ({ name: `nightly database backup ${i}`, slug: `backup-${i}`, tags: 'prod db', channels: channels.map((c) => c._id), status: 'up', lastPing: new Date(), lastDurationMs: 12_000 }));
    const res = await agent.get(base).query({ sort: 'created' });
    expect(namesOf(res.text)).to.have.length(100);
    const bytes = Buffer.byteLength(res.text);
    expect(bytes, `${bytes} bytes`).to.be.at.most(300 * 1024);
    expect([...res.text.matchAll(/<use href="#kind-/g)]).to.have.length(300);
  });
});
