/**
 * A public status page as a visitor without an account reads it (server/status/routes.ts; docs/status-pages.md, "What visitors see"): what is shown, what never
 * is, the escaping of every owner-written text, and the 404s of unknown, unpublished and malformed slugs.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildIncident, buildStatusPage, jsonOf, NASTY, visitor } from './support.js';

describe('a public status page', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('answers an unknown slug with a 404 page, and 404 JSON for its status.json', async () => {
    const page = await visitor().get('/status/nothing-here/');
    expect(page.status).to.equal(404);
    expect(page.type).to.equal('text/html');
    expect(page.text).to.contain('No such status page');
    const json = await visitor().get('/status/nothing-here/status.json');
    expect(json.status).to.equal(404);
    expect(json.body).to.deep.equal({ error: 'not found' });
  });

  it('answers an unpublished page with the same 404 as an unknown one', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { status: 'up' }), 'Import']] }, { published: false });
    const page = await visitor().get('/status/acme/');
    expect(page.status).to.equal(404);
    expect(page.text).to.contain('No such status page').and.not.contain('Acme services');
    expect((await visitor().get('/status/acme/status.json')).status).to.equal(404);
    expect((await visitor().get('/status/acme/feed.atom')).status).to.equal(404);
  });

  it('shows the title, description, sections and the public names of its components', async () => {
    const [a, b] = [await buildCheck(project, { status: 'up' }), await buildCheck(project, { status: 'up' })];
    await buildStatusPage(project, { Imports: [[a, 'Customer import']], Billing: [[b, 'Invoice run']] });
    const res = await visitor().get('/status/acme/');
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('<h1>Acme services</h1>').and.contain('What Acme runs at night');
    expect(res.text).to.contain('>Imports</h2>').and.contain('>Billing</h2>');
    expect(res.text).to.contain('Customer import').and.contain('Invoice run');
  });

  it("never shows the check's own name, UUID, slug, tags, ping URL or the project's ping key, in HTML, JSON or Atom", async () => {
    const check = await buildCheck(project, { status: 'down', name: 'zz-secret-name', slug: 'zz-secret-slug', tags: 'zz-secret-tag other', desc: 'zz-secret-desc' });
    const page = await buildStatusPage(project, { Jobs: [[check, 'Import']] });
    await buildIncident(page, 'Import late', new Date());
    for (const path of ['', 'status.json', 'feed.atom']) {
      const res = await visitor().get(`/status/acme/${path}`);
      expect(res.status, path).to.equal(200);
      for (const secret of ['zz-secret', check._id, check.badgeKey, `/ping/${check._id}`, project.project.pingKey, project.project._id]) expect(res.text, `${path}: ${secret}`).not.to.contain(secret);
    }
  });

  it('escapes every owner-written text in the HTML page', async () => {
    const check = await buildCheck(project, { status: 'up' });
    const page = await buildStatusPage(project, { [NASTY]: [[check, NASTY]] }, { title: NASTY, description: NASTY });
    await buildIncident(page, NASTY, new Date(), ['investigating', 'resolved']);
    const res = await visitor().get('/status/acme/');
    expect(res.status).to.equal(200);
    expect(res.text).not.to.contain('<b>').and.not.to.contain(NASTY);
    // Title (head, h1, logo-less), description, section, component (name, bar label), incident title and update texts.
    expect(res.text.split('&lt;b&gt;&amp;&quot;&#39;').length - 1).to.be.at.least(8);
  });

  it('escapes the titles and descriptions of the public pages listed at /status/', async () => {
    await buildStatusPage(project, {}, { title: NASTY, description: NASTY });
    const res = await visitor().get('/status/');
    expect(res.status).to.equal(200);
    expect(res.text).not.to.contain(NASTY);
    expect(res.text).to.contain('<a href="/status/acme/">&lt;b&gt;&amp;&quot;&#39;</a>: &lt;b&gt;&amp;&quot;&#39;');
  });

  it('keeps every owner-written text as it was typed in valid JSON', async () => {
    const check = await buildCheck(project, { status: 'up' });
    const page = await buildStatusPage(project, { [NASTY]: [[check, NASTY]] }, { title: NASTY, description: NASTY });
    await buildIncident(page, NASTY, new Date());
    const body = jsonOf(await visitor().get('/status/acme/status.json')) as { page: { title: string; description: string }; sections: { name: string; components: { name: string }[] }[]; incidents: { title: string }[] };
    expect([body.page.title, body.page.description, body.sections[0].name, body.sections[0].components[0].name, body.incidents[0].title]).to.deep.equal(Array(5).fill(NASTY));
  });

  it('answers a slug with a path, upper case or 200 characters with a 404 page, never a 500', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { status: 'up' }), 'Import']] });
    for (const path of ['/status/..%2f/', '/status/..%2F..%2Fapi/', '/status/ACME/', '/status/Acme/status.json', `/status/${'a'.repeat(200)}/`, '/status/-acme/']) {
      const res = await visitor().get(path);
      expect(res.status, path).to.equal(404);
    }
  });

  it('answers a slug that is not UTF-8 with the 404 page, never a 500', async () => {
    const res = await visitor().get('/status/%ff/');
    expect(res.status).to.equal(404);
    expect(res.text).to.contain('<h1>No such status page</h1>');
  });

  it('serves the stored logo with its media type, and 404 when the page has none', async () => {
    const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    await buildStatusPage(project, {}, { logo: { data, type: 'image/png', hash: 'abc123' } });
    await buildStatusPage(project, {}, { _id: randomUUID(), slug: 'plain' });
    const logo = await visitor().get('/status/acme/logo');
    expect(logo.status).to.equal(200);
    expect(logo.headers['content-type']).to.equal('image/png');
    expect(Buffer.compare(logo.body as Buffer, data)).to.equal(0);
    expect((await visitor().get('/status/plain/logo')).status).to.equal(404);
  });
});
