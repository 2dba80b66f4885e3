/**
 * A cached status page follows its checks (server/status/cache.ts, shared/status-pages/changes.ts; docs/status-pages.md, "Under a crowd"): a check
 * deleted through the API or moved to another project leaves the page, and a flip from a real fail ping shows, each within a few seconds, on
 * an app whose cache was warm before the change (the change comes through another app, as from another process).
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import mongoose from 'mongoose';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { StatusPage } from '../../../shared/models/status-page.js';
import { announceChanges } from '../../../shared/status-pages/changes.js';
import { buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { waitFor } from '../../helpers/poll.js';
import { api } from '../routes/support.js';
import { buildStatusPage, jsonOf, visitor } from './support.js';

/** Milliseconds a change may take to show: the stream is read twice a second. */
const SHOWS_WITHIN_MS = 5_000;

interface Components {
  sections: { components: { name: string; status: string }[] }[];
}

/** The components the page shows now, by public name and status. */
async function shownBy(agent: supertest.Agent): Promise<string[]> {
  const body = jsonOf(await agent.get('/status/acme/status.json')) as unknown as Components;
  return body.sections.flatMap((s) => s.components.map((c) => `${c.name}: ${c.status}`));
}

describe('a cached status page following its checks', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('drops a check deleted through the API within a few seconds', async () => {
    const [kept, gone] = [await buildCheck(project, { status: 'up' }), await buildCheck(project, { status: 'up' })];
    await buildStatusPage(project, { Jobs: [[kept, 'Import'], [gone, 'Export']] });
    const agent = visitor();
    expect(await shownBy(agent)).to.deep.equal(['Import: operational', 'Export: operational']);
    expect((await api(project.apiKey).delete(`/checks/${gone._id}`)).status).to.equal(200);
    await waitFor('the deleted check gone from the page', async () => (await shownBy(agent)).length === 1, SHOWS_WITHIN_MS);
    expect(await shownBy(agent)).to.deep.equal(['Import: operational']);
    expect((await agent.get('/status/acme/')).text).not.to.contain('Export');
  });

  it('drops a check transferred to another project within a few seconds', async () => {
    const check = await buildCheck(project, { status: 'up' });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const other = await buildProject({ name: 'elsewhere' });
    const user = await buildUser('owner@example.org');
    await Promise.all([join(project.project._id, user, 'rw'), join(other.project._id, user, 'rw')]);
    const owner = webAgent();
    await signIn(owner, user.email);
    const one = `/projects/${project.project._id}/checks/${check._id}/`;
    const agent = visitor();
    expect(await shownBy(agent)).to.deep.equal(['Import: operational']);
    const moved = await owner.post(`${one}transfer`).type('form').send({ _csrf: csrfOf((await owner.get(one)).text), project: other.project._id });
    expect(moved.status).to.equal(303);
    await waitFor('the moved check gone from the page', async () => (await shownBy(agent)).length === 0, SHOWS_WITHIN_MS);
  });

  it('shows a real flip (a fail ping through the Pinging API) as an outage within a few seconds', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date() });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const agent = visitor();
    expect(await shownBy(agent)).to.deep.equal(['Import: operational']);
    expect((await http().get(`/ping/${check._id}/fail`)).status).to.equal(200);
    await waitFor('the outage on the page', async () => (await shownBy(agent))[0] === 'Import: outage', SHOWS_WITHIN_MS);
    const status = jsonOf(await agent.get('/status/acme/status.json')).status;
    expect(status).to.deep.equal({ indicator: 'major', description: 'Major outage' });
  });

  it('computes a watched page again as soon as its checks change, without a visitor and without reading the page document again', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date() });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const agent = visitor();
    expect(await shownBy(agent)).to.deep.equal(['Import: operational']);
    const queries: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => void queries.push(`${collection}.${method}`));
    try {
      // As a flip's completion leaves it: the check's new status stored, then the change announced.
      await Check.updateOne({ _id: check._id }, { $set: { status: 'down' } });
      await announceChanges(testContext().redis, [{ kind: 'check', id: check._id }]);
      // A page a visitor just read is computed again without waiting for the next one.
      await waitFor('the page computed again with no visitor', () => Promise.resolve(queries.includes('flips.find')), SHOWS_WITHIN_MS);
      expect(queries).not.to.include('statuspages.findOne');
      expect(await shownBy(agent)).to.deep.equal(['Import: outage']);
    } finally {
      mongoose.set('debug', false);
    }
  });

  it('gives the page a new ETag after a flip, so a cache revalidating with the old one gets the new page', async () => {
    const check = await buildCheck(project, { status: 'up', lastPing: new Date() });
    await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    const agent = visitor();
    const etag = String((await agent.get('/status/acme/')).headers.etag);
    await http().get(`/ping/${check._id}/fail`);
    const fresh = await waitFor('a new page', async () => {
      const res = await agent.get('/status/acme/').set('If-None-Match', etag);
      return res.status === 200 && res;
    }, SHOWS_WITHIN_MS);
    expect(fresh.headers.etag).not.to.equal(etag);
    expect(fresh.text).to.contain('Major outage');
  });

  it('serves a page published at a slug it had answered 404 for, once the edit is announced', async () => {
    const agent = visitor();
    expect((await agent.get('/status/acme/')).status).to.equal(404);
    const page = await buildStatusPage(project);
    // As the owners' editor does after a save.
    await announceChanges(testContext().redis, [{ kind: 'page', id: page._id }]);
    await waitFor('the new page', async () => (await agent.get('/status/acme/')).status === 200, SHOWS_WITHIN_MS);
  });

  it('takes down an unpublished page within a few seconds, once the edit is announced', async () => {
    const page = await buildStatusPage(project);
    const agent = visitor();
    expect((await agent.get('/status/acme/status.json')).status).to.equal(200);
    await StatusPage.updateOne({ _id: page._id }, { $set: { published: false }, $inc: { rev: 1 } });
    await announceChanges(testContext().redis, [{ kind: 'page', id: page._id }]);
    await waitFor('the page gone', async () => (await agent.get('/status/acme/status.json')).status === 404, SHOWS_WITHIN_MS);
    expect((await agent.get('/status/acme/')).text).to.contain('No such status page');
  });

  it('answers 20 visitors of a cold 50-component page from one computation in a fixed number of queries, then from memory', async () => {
    const checks = await Promise.all(Array.from({ length: 50 }, () => buildCheck(project, { status: 'up' })));
    await buildStatusPage(project, { Jobs: checks.map((c, n): [CheckDoc, string] => [c, `Job ${n}`]) });
    const agent = visitor();
    const queries: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => void queries.push(`${collection}.${method}`));
    try {
      const cold = await Promise.all(Array.from({ length: 20 }, () => agent.get('/status/acme/status.json')));
      expect(cold.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
      expect(queries.sort()).to.deep.equal(['checks.find', 'flips.find', 'incidents.find', 'maintenance.find', 'statuspages.findOne']);
      queries.length = 0;
      for (const path of ['', 'status.json', 'feed.atom', 'badge.svg']) expect((await agent.get(`/status/acme/${path}`)).status).to.equal(200);
      expect(queries).to.deep.equal([]);
    } finally {
      mongoose.set('debug', false);
    }
  });
});
