/**
 * A security and correctness review of the public status pages (docs/status-pages.md, "Security"), probed from outside: each test reproduces a flaw found, on the real
 * app over HTTP, with a visitor whose cache was warm before the change.
 */
import { expect } from 'chai';
import argon2 from 'argon2';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { waitFor } from '../../helpers/poll.js';
import { Incident } from '../../../shared/models/incident.js';
import { api } from '../routes/support.js';
import { buildIncident, buildStatusPage, daysAgo, expectWellFormedXml, visitor } from './support.js';

/** Milliseconds a change may take to show: the stream is read twice a second (the cache's age limit is 15 s). */
const SHOWS_WITHIN_MS = 5_000;

describe('status pages under review', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('takes down the pages of a deleted project within a few seconds, not after the cache’s age limit', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { name: 'nightly' }), 'Nightly']] });
    const agent = visitor();
    expect((await agent.get('/status/acme/status.json')).status).to.equal(200);
    const user = await buildUser('owner@example.org');
    await join(project.project._id, user, 'owner');
    const owner = webAgent();
    await signIn(owner, user.email);
    const settings = `/projects/${project.project._id}/settings/`;
    const _csrf = csrfOf((await owner.get(settings)).text);
    expect((await owner.post(`/projects/${project.project._id}/delete`).type('form').send({ _csrf, confirm: project.project.name })).status).to.equal(303);
    await waitFor('the page gone', async () => (await agent.get('/status/acme/status.json')).status === 404, SHOWS_WITHIN_MS);
  });

  it('keeps the Atom feed well-formed XML when an incident typed in the editor holds a control character', async () => {
    const page = await buildStatusPage(project);
    const user = await buildUser('rw-feed@example.org');
    await join(project.project._id, user, 'rw');
    const owner = webAgent();
    await signIn(owner, user.email);
    const incidents = `/projects/${project.project._id}/status-pages/${page._id}/incidents/`;
    const _csrf = csrfOf((await owner.get(incidents)).text);
    // Pasted from a word processor: a vertical tab and a form feed, which XML 1.0 does not allow even escaped.
    expect((await owner.post(incidents).type('form').send({ _csrf, title: 'Queue\u000bstuck', stage: 'investigating', text: 'Page 1\u000cpage 2\ud800' })).status).to.equal(303);
    const feed = await visitor().get('/status/acme/feed.atom').buffer(true);
    expect(feed.status).to.equal(200);
    expect(feed.text).to.contain('Queuestuck');
    // eslint-disable-next-line no-control-regex
    expect(feed.text, 'a character XML 1.0 forbids').not.to.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/u);
    expectWellFormedXml(feed.text);
  });

  it('answers a password page to a cookie of the right length in characters but not in bytes with the password form, never a 500', async () => {
    const page = await buildStatusPage(project, {}, { visibility: 'password', passwordHash: await argon2.hash('correct horse battery') });
    // The right cookie is 43 characters (a SHA-256 in base64url); this one too, but 44 bytes.
    const forged = `hc_status_${page._id.replaceAll('-', '')}=${'a'.repeat(42)}%C3%A9`;
    for (const path of ['', 'status.json', 'logo']) expect((await visitor().get(`/status/acme/${path}`).set('Cookie', forged)).status, path).to.equal(403);
  });
});

describe('status pages under review: probes that found nothing', () => {
  /** A project with a read-write member signed in, a page made through the editor at slug `probe`, and its editor's path. */
  async function editing() {
    const built = await buildProject();
    const user = await buildUser('rw-review@example.org');
    await join(built.project._id, user, 'rw');
    const agent = webAgent();
    await signIn(agent, user.email);
    const list = `/projects/${built.project._id}/status-pages/`;
    const _csrf = csrfOf((await agent.get(list)).text);
    const res = await agent.post(list).type('form').send({ title: 'Probe', slug: 'probe', description: '', tz: 'UTC', visibility: 'public', published: '1', _csrf });
    expect(res.status, res.text).to.equal(303);
    return { built, agent, _csrf, one: String(res.headers.location) };
  }

  it('stops answering at the old slug and answers at the new one within a few seconds of a slug change', async () => {
    const { agent, _csrf, one } = await editing();
    const reader = visitor();
    expect((await reader.get('/status/probe/status.json')).status).to.equal(200);
    const res = await agent.post(one).type('form').send({ title: 'Probe', slug: 'probe-2', description: '', tz: 'UTC', visibility: 'public', published: '1', _csrf });
    expect(res.status).to.equal(303);
    await waitFor('the old slug gone', async () => (await reader.get('/status/probe/status.json')).status === 404, SHOWS_WITHIN_MS);
    expect((await reader.get('/status/probe-2/status.json')).status).to.equal(200);
  });

  it('shows a check paused and resumed through the API within a few seconds, on both pages that share it', async () => {
    const built = await buildProject();
    const check = await buildCheck(built, { status: 'up', lastPing: new Date() });
    await buildStatusPage(built, { Jobs: [[check, 'Nightly']] });
    await buildStatusPage(built, { Jobs: [[check, 'Nightly']] }, { slug: 'acme-2' });
    const reader = visitor();
    const state = async (slug: string) => ((await reader.get(`/status/${slug}/status.json`)).body as { sections: { components: { status: string }[] }[] }).sections[0].components[0].status;
    expect([await state('acme'), await state('acme-2')]).to.deep.equal(['operational', 'operational']);
    expect((await api(built.apiKey).post(`/checks/${check._id}/pause`)).status).to.equal(200);
    await waitFor('paused on both', async () => (await state('acme')) === 'paused' && (await state('acme-2')) === 'paused', SHOWS_WITHIN_MS);
    expect((await api(built.apiKey).post(`/checks/${check._id}/resume`)).status).to.equal(200);
    await waitFor('resumed on both', async () => (await state('acme')) === 'unknown' && (await state('acme-2')) === 'unknown', SHOWS_WITHIN_MS);
  });

  it("answers 404 to another page's incident in the path, and leaves it as it was", async () => {
    const { agent, _csrf, one } = await editing();
    const other = await buildStatusPage(await buildProject(), {}, { slug: 'other' });
    const incident = await buildIncident(other, 'Theirs', daysAgo(1));
    expect((await agent.post(`${one}incidents/${incident._id}/`).type('form').send({ stage: 'resolved', text: 'x', _csrf })).status).to.equal(404);
    expect((await agent.post(`${one}incidents/${incident._id}/delete`).type('form').send({ _csrf })).status).to.equal(404);
    expect(await Incident.findById(incident._id).lean()).to.include({ resolved: null });
  });

  it('refuses every editor form without its CSRF token, multipart too', async () => {
    const { agent, one } = await editing();
    for (const path of [one, `${one}sections`, `${one}incidents/`, `${one}delete`, `${one}logo/delete`]) expect((await agent.post(path).type('form').send({ title: 'x' })).status, path).to.equal(403);
    expect((await agent.post(`${one}logo`).attach('logo', Buffer.from('GIF89a'), 'a.gif')).status).to.equal(403);
  });

  it('answers odd form fields (arrays, repeats, NUL, thousands of rows, a file under another name) with a page, never a 500', async () => {
    const { built, agent, _csrf, one } = await editing();
    const check = await buildCheck(built);
    const odd = await agent.post(one).type('form').send(`_csrf=${_csrf}&title[]=x&slug=probe&tz=Mars%2FX&visibility[]=password`);
    expect(odd.status).to.equal(400);
    expect((await agent.post(one).type('form').send({ _csrf, title: 'a\u0000b', slug: 'probe', tz: 'UTC', visibility: 'public', published: '1' })).status).to.equal(400);
    const repeated = await agent.post(`${one}sections`).type('form').send(`_csrf=${_csrf}&section_0_present=1&section_0_present=1&section_0_present_0=1&section_0_check_0=${check._id}&section_0_name_0=A`);
    expect(repeated.status).to.be.oneOf([303, 400]);
    const rows = Array.from({ length: 3000 }, (_, j) => `section_0_present_${j}=1&section_0_check_${j}=${check._id}&section_0_name_${j}=N`).join('&');
    const many = await agent.post(`${one}sections`).type('form').send(`_csrf=${_csrf}&section_0_present=1&section_0_name=S&${rows}`);
    expect(many.status).to.be.within(400, 499);
    const elsewhere = await agent.post(`${one}logo`).field('_csrf', _csrf).attach('picture', Buffer.from('GIF89a'), 'a.gif');
    expect(elsewhere.status).to.be.within(400, 499);
  });

  it('serves a GIF-headed HTML polyglot logo as an image that no browser may sniff or run', async () => {
    const { agent, _csrf, one } = await editing();
    const polyglot = Buffer.from('GIF89a<html><script>alert(1)</script></html>');
    expect((await agent.post(`${one}logo`).field('_csrf', _csrf).attach('logo', polyglot, 'logo.html')).status).to.equal(303);
    for (const path of ['/status/probe/logo', `${one}logo`]) {
      const res = await agent.get(path).buffer(true);
      expect(res.headers['content-type'], path).to.equal('image/gif');
      expect(res.headers['x-content-type-options'], path).to.equal('nosniff');
      expect(res.headers['content-security-policy'], path).to.contain("default-src 'self'");
    }
  });

  it('takes a deleted page, its feeds and logo down within a few seconds, and off /status/', async () => {
    const { agent, _csrf, one } = await editing();
    const reader = visitor();
    expect((await reader.get('/status/')).text).to.contain('/status/probe/');
    expect((await reader.get('/status/probe/feed.atom')).status).to.equal(200);
    expect((await agent.post(`${one}delete`).type('form').send({ _csrf })).status).to.equal(303);
    await waitFor('the page gone', async () => (await reader.get('/status/probe/feed.atom')).status === 404, SHOWS_WITHIN_MS);
    for (const path of ['', 'status.json', 'badge.svg', 'logo']) expect((await reader.get(`/status/probe/${path}`)).status, path).to.equal(404);
    await waitFor('the page off /status/', async () => !(await reader.get('/status/')).text.includes('/status/probe/'), SHOWS_WITHIN_MS);
  });
});
