/**
 * The checks list and status at a glance in a real browser (server/pages/checks/list/check-list.ts, glance.ts, static/list.js):
 * the title and favicon turn to down live when a check gets a /fail ping; a run's duration appears in its row live; an
 * integration switched on and off in place; the list filtered by a tag chip and a status, sorted, and one check found by search among 10,000; axe finds nothing
 * serious on the list or the project list; the project list's title and favicon turn to down live too. Screenshots: docs/screenshots/checks-list.png and projects.png.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { buildChannel, buildCheck, type TestProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { waitFor } from '../../helpers/poll.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

/** docs/screenshots/ of the checkout: from dist/test/server/pages/ five levels up. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
/** How long a live change may take to show: the list polls every 2 s. */
const LIVE_MS = 15_000;
const SEEDED = 10_000;

describe('checks list in a browser', function () {
  this.timeout(300_000);
  const fixture = useBrowser();

  it('turns the title and favicon of a page outside the project to down live', async () => {
    const { web } = await signInToNewProject(fixture, 'glance@example.org', 'Nightly');
    const project = await Project.findOne({ name: 'Nightly' }).lean<ProjectDoc>();
    const built: TestProject = { project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' };
    const probe = await buildCheck(built, { name: 'probe', status: 'up', lastPing: new Date() });
    await web.goto('/projects/');
    expect(await web.page.title()).to.match(/^Projects · /);
    expect((await fetch(`${fixture.origin}/ping/${probe._id}/fail`)).status).to.equal(200);
    await web.page.waitForFunction(() => document.title.startsWith('1 down · Projects'), { timeout: LIVE_MS });
    await web.page.waitForFunction(() => document.querySelector('#favicon')?.getAttribute('href') === '/static/favicon-down.svg', { timeout: LIVE_MS });
  });

  it('follows a check going down in the title and favicon, toggles an integration, filters, sorts and finds one check among 10,000', async () => {
    const { web, base } = await signInToNewProject(fixture, 'list@example.org', 'Backups');
    const { page } = web;
    const project = await Project.findOne({ name: 'Backups' }).lean<ProjectDoc>();
    const built: TestProject = { project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' };
    const probe = await buildCheck(built, { name: 'web probe', tags: 'web', status: 'up', lastPing: new Date() });
    const channel = await buildChannel(built, { name: 'ops mail' });

    // Live: a /fail ping while the list is open turns the title and the favicon to down.
    await web.goto(base);
    expect(await page.title()).to.match(/^Backups · /);
    expect(await page.$eval('#favicon', (el) => el.getAttribute('href'))).to.equal('/static/favicon.svg');
    expect((await fetch(`${fixture.origin}/ping/${probe._id}/fail`)).status).to.equal(200);
    await page.waitForFunction(() => document.title.startsWith('1 down · Backups'), { timeout: LIVE_MS });
    await page.waitForFunction(() => document.querySelector('#favicon')?.getAttribute('href') === '/static/favicon-down.svg', { timeout: LIVE_MS });
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'down', { timeout: LIVE_MS }, probe._id);

    // A run (/start, then success) shows its duration in the row, live.
    const duration = `tr[data-check="${probe._id}"] [data-field="last_duration"]`;
    expect(await web.text(duration)).to.equal('');
    expect((await fetch(`${fixture.origin}/ping/${probe._id}/start`)).status).to.equal(200);
    expect((await fetch(`${fixture.origin}/ping/${probe._id}`)).status).to.equal(200);
    await page.waitForFunction((sel) => / s$/.test(document.querySelector(sel)?.textContent ?? ''), { timeout: LIVE_MS }, duration);

    // An integration switched on, then off, in place.
    const toggle = `tr[data-check="${probe._id}"] button.toggle`;
    await page.click(toggle);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-pressed') === 'true', { timeout: LIVE_MS }, toggle);
    expect((await Check.findById(probe._id).lean())?.channels).to.deep.equal([channel._id]);
    await page.click(toggle);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-pressed') === 'false', { timeout: LIVE_MS }, toggle);
    await waitFor('the channel switched off', async () => (await Check.findById(probe._id).lean())?.channels.length === 0, LIVE_MS);

    // 10,000 more checks, seeded through the model.
    const now = Date.now();
    const tags = ['db', 'etl', 'reports', 'nightly'];
    const docs = Array.from({ length: SEEDED }, (_, i) => ({
      _id: randomUUID(), projectId: project!._id, badgeKey: randomUUID(), created: new Date(now + i), name: `job-${String(i).padStart(5, '0')}`,
      tags: tags[i % tags.length], timeout: 86_400, grace: 3600, status: i % 9 === 0 ? 'down' : 'up', lastPing: new Date(now - (i % 500) * 60_000),
    }));
    for (let i = 0; i < docs.length; i += 1000) await Check.insertMany(docs.slice(i, i + 1000));

    // A tag chip, then a status and a sort from the form: all in the URL.
    await web.goto(base);
    expect(await web.text('#list-count')).to.equal(`Showing 1–100 of ${(SEEDED + 1).toLocaleString('en')}`);
    await web.submit('ul.chips a.chip[href$="?tag=db"]');
    await page.click('#list-status-down');
    await page.select('#list-sort', 'name');
    await web.submit('form.list-filters button[type=submit]');
    const url = new URL(page.url());
    expect(url.searchParams.getAll('tag')).to.deep.equal(['db']);
    expect(url.searchParams.get('status')).to.equal('down');
    expect(url.searchParams.get('sort')).to.equal('name');
    const statuses = await page.$$eval('#checks tbody tr', (rows) => rows.map((row) => row.getAttribute('data-status')));
    expect(statuses.length).to.equal(100);
    expect(new Set(statuses)).to.deep.equal(new Set(['down']));
    const names = await page.$$eval('#checks tbody tr td:nth-child(2) a', (links) => links.map((a) => a.textContent));
    expect(names.slice(0, 2)).to.deep.equal(['job-00000', 'job-00036']);
    expect(await seriousFindings(page)).to.deep.equal([]);

    // One check found by search among them all.
    await web.goto(base);
    await web.fill('#list-q', 'job-04321');
    await web.submit('form.list-filters button[type=submit]');
    expect(await page.$$eval('#checks tbody tr td:nth-child(2) a', (links) => links.map((a) => a.textContent))).to.deep.equal(['job-04321']);
    expect(await web.text('#list-count')).to.equal(`Showing 1–1 of 1 (${(SEEDED + 1).toLocaleString('en')} in the project)`);

    await web.goto(`${base}?sort=down`);
    expect(await seriousFindings(page)).to.deep.equal([]);
    await page.screenshot({ path: `${SCREENSHOTS}checks-list.png` });
    await web.goto('/projects/');
    expect(await page.$eval(`li[data-project="${project!._id}"] [data-count="down"]`, (el) => el.textContent)).to.match(/^\d+ down$/);
    expect(await seriousFindings(page)).to.deep.equal([]);
    await page.screenshot({ path: `${SCREENSHOTS}projects.png` });
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
