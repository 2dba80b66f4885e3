/**
 * The checks list's one-line rows in chromium at 1280×900 (server/pages/checks/list/: views/checks.eta, static/list.css, list.js):
 * 20 checks with two tags and three integrations (email, webhook, Slack) each fit rows of at most 72 px in a table at
 * least 1,200 px wide; axe-core finds nothing serious in the light and the dark theme; a search typed narrows the rows
 * without Apply; without the script a toggle is a plain form POST; on a phone the values keep their labels. Screenshots: docs/screenshots/list-light.png, list-dark.png.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { buildChannel, buildCheck, type TestProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

/** docs/screenshots/ of the checkout: from dist/test/server/pages/ five levels up. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
const WIDE = { width: 1280, height: 900 };
const MINUTE_MS = 60_000;

/** The list's row heights, the table's width and how far the page scrolls sideways, CSS pixels. */
const sizesOf = (page: Page): Promise<{ rows: number[]; table: number; overflow: number }> =>
  page.evaluate(() => ({
    rows: [...document.querySelectorAll('#checks tbody tr')].map((row) => row.getBoundingClientRect().height),
    table: document.querySelector('#checks')!.getBoundingClientRect().width,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));

/** 20 checks, each with two tags, a slug, a recent ping and run, and the three integrations. */
async function seed(built: TestProject): Promise<void> {
  const channels = [
    await buildChannel(built, { name: 'ops mail' }),
    await buildChannel(built, { name: 'deploy hook', kind: 'webhook', value: 'https://hooks.example.org/hc' }),
    await buildChannel(built, { name: 'team chat', kind: 'slack', value: 'https://hooks.slack.com/services/T/B/x' }),
  ];
  const now = Date.now();
  for (let i = 1; i <= 20; i++) {
    await buildCheck(built, {
      name: `nightly backup ${i}`, slug: `nightly-backup-${i}`, tags: i % 2 ? 'prod db' : 'staging web', status: i === 3 ? 'down' : 'up',
      lastPing: new Date(now - i * 7 * MINUTE_MS), lastDurationMs: 1000 * (30 + i), channels: channels.map((c) => c._id), created: new Date(now - (20 - i) * 1000),
    });
  }
}

describe('checks list rows in a browser', function () {
  this.timeout(300_000);
  const fixture = useBrowser();

  it('fits 20 rows with tags and integrations in one line each, passes axe in light and dark, and searches as you type', async () => {
    const { web, base } = await signInToNewProject(fixture, 'rows@example.org', 'Backups', WIDE);
    const { page } = web;
    const project = await Project.findOne({ name: 'Backups' }).lean<ProjectDoc>();
    await seed({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' });

    await web.goto(base);
    const { rows, table, overflow } = await sizesOf(page);
    expect(rows).to.have.length(20);
    expect(Math.max(...rows), `row heights ${rows.join(', ')}`).to.be.at.most(72);
    expect(table).to.be.at.least(1200);
    expect(overflow, 'no sideways scrolling').to.equal(0);
    expect(await page.$$eval('#checks tbody tr:first-child button.toggle', (b) => b.map((x) => [x.title, x.getAttribute('aria-label')])))
      .to.deep.equal([['ops mail (email)', 'ops mail for nightly backup 1'], ['deploy hook (webhook)', 'deploy hook for nightly backup 1'], ['team chat (slack)', 'team chat for nightly backup 1']]);
    expect(await page.$eval('#checks tbody tr:first-child td.when', (td) => [td.textContent, getComputedStyle(td).whiteSpace])).to.deep.equal(['7 min ago31 s', 'nowrap']);
    expect(await seriousFindings(page), 'light theme').to.deep.equal([]);
    await page.screenshot({ path: `${SCREENSHOTS}list-light.png` });

    // The dark theme, chosen in the header and saved: the same list at AA.
    await Promise.all([page.waitForResponse((res) => res.url().endsWith('/account/theme')), page.select('form.theme-switch select', 'dark')]);
    await web.goto(base);
    expect(await page.$eval('html', (el) => el.dataset.theme)).to.equal('dark');
    expect(await seriousFindings(page), 'dark theme').to.deep.equal([]);
    expect(Math.max(...(await sizesOf(page)).rows)).to.be.at.most(72);
    await page.screenshot({ path: `${SCREENSHOTS}list-dark.png` });

    // A search typed narrows the rows in place: no Apply, no navigation.
    await page.evaluate(() => Object.assign(window, { samePage: true }));
    await page.type('#list-q', 'backup 1');
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 11);
    const names = await page.$$eval('#checks tbody td.name a', (links) => links.map((a) => a.textContent));
    expect(names).to.have.length(11).and.include('nightly backup 1').and.include('nightly backup 19').and.not.include('nightly backup 2');
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).to.equal(true);
    expect(new URL(page.url()).searchParams.get('q')).to.equal('backup 1');
    await page.click('#list-status-down');
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 0 && /No check matches/.test(document.querySelector('#list-count')!.textContent ?? ''));
    expect(web.errors, 'script errors on the page').to.deep.equal([]);
  });

  it('switches an integration with a plain form POST when the script is off, Copy hidden', async () => {
    const { web, base } = await signInToNewProject(fixture, 'plain@example.org', 'Plain', WIDE);
    const project = await Project.findOne({ name: 'Plain' }).lean<ProjectDoc>();
    await seed({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' });
    await web.page.setJavaScriptEnabled(false);
    await web.goto(`${base}?sort=name&q=backup+7`);
    const toggle = '#checks tbody tr:first-child button.toggle[title^="deploy hook"]';
    expect(await web.page.$eval(toggle, (b) => b.getAttribute('aria-pressed'))).to.equal('true');
    expect(await web.page.$eval('#checks button[data-copy]', (b) => b.hidden)).to.equal(true);
    await web.submit(toggle);
    expect(new URL(web.page.url()).search).to.equal('?q=backup+7&sort=name');
    expect(await web.page.$eval(toggle, (b) => b.getAttribute('aria-pressed'))).to.equal('false');
  });

  it('keeps each value\'s label on a phone-width screen', async () => {
    const { web, base } = await signInToNewProject(fixture, 'phone@example.org', 'Phone', { width: 390, height: 844 });
    const project = await Project.findOne({ name: 'Phone' }).lean<ProjectDoc>();
    await seed({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' });
    await web.goto(base);
    const labels = await web.page.$$eval('#checks tbody tr:first-child td[data-label]', (cells) => cells.map((td) => getComputedStyle(td, '::before').content));
    expect(labels).to.include('"Last ping, run: "').and.include('"Integrations: "').and.include('"Ping URL: "');
    expect(await seriousFindings(web.page)).to.deep.equal([]);
  });
});
