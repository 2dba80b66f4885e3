/**
 * A status page's feeds and caching headers (server/status/render.ts and routes.ts; docs/status-pages.md, "Feeds"): the Atom feed, the badge, ETags,
 * Cache-Control, and which pages `/status/` lists and search engines may index.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { StatusPage } from '../../../shared/models/status-page.js';
import { announceChanges } from '../../../shared/status-pages/changes.js';
import { testContext } from '../../helpers/hooks.js';
import { waitFor } from '../../helpers/poll.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildIncident, buildStatusPage, daysAgo, expectWellFormedXml, NASTY, visitor } from './support.js';

describe('a status page\u2019s feeds and headers', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('serves a well-formed Atom feed with an entry per incident', async () => {
    const page = await buildStatusPage(project);
    const incidents = [await buildIncident(page, 'Slow imports', daysAgo(3), ['investigating', 'resolved']), await buildIncident(page, 'Billing late', daysAgo(1))];
    const res = await visitor().get('/status/acme/feed.atom').buffer(true);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/atom+xml; charset=utf-8');
    expectWellFormedXml(res.text);
    expect(res.text.match(/<entry>/g)).to.have.length(2);
    for (const i of incidents) expect(res.text).to.contain(`<id>urn:uuid:${i._id}</id>`);
  });

  it('escapes every owner-written text in the Atom feed, which stays well-formed', async () => {
    const page = await buildStatusPage(project, {}, { title: NASTY });
    await buildIncident(page, NASTY, daysAgo(1));
    const res = await visitor().get('/status/acme/feed.atom').buffer(true);
    expectWellFormedXml(res.text);
    expect(res.text).not.to.contain('<b>');
    expect(res.text).to.contain('<title>&lt;b&gt;&amp;&quot;&#39;: incidents</title>').and.contain('investigating &lt;b&gt;&amp;&quot;&#39;');
  });

  it('serves an SVG badge of the overall status', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { status: 'up' }), 'A'], [await buildCheck(project, { status: 'down' }), 'B'], [await buildCheck(project, { status: 'up' }), 'C']] });
    const res = await visitor().get('/status/acme/badge.svg').buffer(true);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('image/svg+xml');
    const svg = String(res.body);
    expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).to.contain('partial outage');
  });

  it('answers 304 to If-None-Match with the ETag of the page, its JSON, feed and badge', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { status: 'up' }), 'Import']] });
    const agent = visitor();
    for (const path of ['', 'status.json', 'feed.atom', 'badge.svg']) {
      const first = await agent.get(`/status/acme/${path}`);
      expect(first.headers.etag, path).to.match(/^"[\w-]+"$/);
      const again = await agent.get(`/status/acme/${path}`).set('If-None-Match', String(first.headers.etag));
      expect(again.status, path).to.equal(304);
    }
  });

  it('lets shared caches keep a public page and its logo a second: Cache-Control public, s-maxage=1', async () => {
    await buildStatusPage(project, {}, { logo: { data: Buffer.from('GIF89a'), type: 'image/gif', hash: 'h1' } });
    for (const path of ['', 'status.json', 'feed.atom', 'badge.svg', 'logo']) {
      const res = await visitor().get(`/status/acme/${path}`);
      // A removed logo or a page made private leaves shared caches within a second, as a flip does.
      expect(res.headers['cache-control'], path).to.equal('public, max-age=0, s-maxage=1');
      expect(res.headers['x-robots-tag'], path).to.equal(undefined);
    }
  });

  it('sets no cookie and starts no session on any answer of a public page', async () => {
    await buildStatusPage(project, {}, { logo: { data: Buffer.from('GIF89a'), type: 'image/gif', hash: 'h1' } });
    for (const path of ['/status/acme/', '/status/acme/status.json', '/status/acme/feed.atom', '/status/acme/badge.svg', '/status/acme/logo', '/status/']) {
      const res = await visitor().get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers['set-cookie'], path).to.equal(undefined);
    }
  });

  it("lets other sites' scripts read a public page's JSON, feed and badge, but not a password page's", async () => {
    await buildStatusPage(project);
    for (const path of ['status.json', 'feed.atom', 'badge.svg']) expect((await visitor().get(`/status/acme/${path}`)).headers['access-control-allow-origin'], path).to.equal('*');
    expect((await visitor().get('/status/acme/')).headers['access-control-allow-origin']).to.equal(undefined);
    await StatusPage.updateOne({}, { $set: { visibility: 'password', passwordHash: 'none' } });
    expect((await visitor().get('/status/acme/status.json')).headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('redirects a page address without its final slash to the page', async () => {
    await buildStatusPage(project);
    const res = await visitor().get('/status/acme');
    expect(res.status).to.equal(301);
    expect(res.headers.location).to.equal('/status/acme/');
  });

  it('lets shared caches keep the list of public pages at /status/ too', async () => {
    await buildStatusPage(project);
    const res = await visitor().get('/status/');
    expect(res.status).to.equal(200);
    expect(res.headers['cache-control']).to.match(/^public\b/);
  });

  it('lists a public page at /status/ but not an unlisted one, which says noindex', async () => {
    await buildStatusPage(project, {}, { title: 'Listed one' });
    await buildStatusPage(project, {}, { _id: randomUUID(), slug: 'hidden', title: 'Unlisted one', visibility: 'unlisted' });
    const index = await visitor().get('/status/');
    expect(index.status).to.equal(200);
    expect(index.text).to.contain('href="/status/acme/"').and.contain('Listed one').and.not.contain('hidden').and.not.contain('Unlisted one');
    const hidden = await visitor().get('/status/hidden/');
    expect(hidden.status).to.equal(200);
    expect(hidden.headers['x-robots-tag']).to.equal('noindex');
    expect(hidden.text).to.contain('<meta name="robots" content="noindex">');
  });

  it('sends the page gzipped to a client that accepts it, the same bytes unzipped', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { status: 'up' }), 'Import']] });
    const agent = visitor();
    const plain = await agent.get('/status/acme/status.json').set('Accept-Encoding', 'identity');
    const zipped = await agent.get('/status/acme/status.json').set('Accept-Encoding', 'gzip');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(zipped.headers.vary).to.contain('Accept-Encoding');
    expect(zipped.body).to.deep.equal(plain.body);
  });

  it('tells search engines not to index any answer of an unlisted page', async () => {
    await buildStatusPage(project, {}, { visibility: 'unlisted' });
    for (const path of ['', 'status.json', 'feed.atom', 'badge.svg']) {
      const res = await visitor().get(`/status/acme/${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers['x-robots-tag'], path).to.equal('noindex');
    }
  });

  it('drops a page from /status/ within a few seconds once it is made unlisted', async () => {
    const page = await buildStatusPage(project, {}, { title: 'Soon hidden' });
    const agent = visitor();
    expect((await agent.get('/status/')).text).to.contain('Soon hidden');
    await StatusPage.updateOne({ _id: page._id }, { $set: { visibility: 'unlisted' }, $inc: { rev: 1 } });
    // As the owners' editor does after a save.
    await announceChanges(testContext().redis, [{ kind: 'page', id: page._id }]);
    await waitFor('the page off the list', async () => !(await agent.get('/status/')).text.includes('Soon hidden'), 5_000);
  });
});
