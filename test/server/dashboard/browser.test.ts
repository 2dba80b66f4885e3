/**
 * The dashboard in a real browser (issue 9): chromium signs in with each kind
 * of key, reads 50 checks in every status, follows a live change, pauses and
 * resumes, edits a check into a validation error and out of it, and reads a
 * failed run. Screenshots of the list and the detail page are saved to
 * TEST_OUTPUT_DIR (`.data/test-output/`).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { launchBrowser, serveApp, TEST_OUTPUT_DIR, type Served } from '../../helpers/browser.js';

const SECOND_MS = 1000;
const DAY_MS = 86400 * SECOND_MS;
/** How long a live change may take to show: the page polls every 2 s. */
const LIVE_MS = 8000;

/** Fields that give each status (behaviour.md §2.3) to a simple check with timeout 1 hour, grace 5 minutes. */
function fieldsFor(status: string, now: number): Partial<CheckDoc> {
  const base = { kind: 'simple' as const, timeout: 3600, grace: 300, nPings: 3 };
  switch (status) {
    case 'new':
      return { ...base, nPings: 0 };
    case 'up':
      return { ...base, status: 'up', lastPing: new Date(now - 60 * SECOND_MS) };
    case 'grace':
      return { ...base, status: 'up', lastPing: new Date(now - 3700 * SECOND_MS) };
    case 'down':
      return { ...base, status: 'down', lastPing: new Date(now - 2 * DAY_MS) };
    case 'paused':
      return { ...base, status: 'paused', lastPing: new Date(now - DAY_MS) };
    case 'started':
      return { ...base, status: 'up', lastPing: new Date(now - 600 * SECOND_MS), lastStart: new Date(now - 10 * SECOND_MS) };
    default:
      throw new Error(`no such status: ${status}`);
  }
}

/** 50 checks: 9 down, 9 up, 8 each grace, started, new and paused; every other one tagged `staging`, the rest `prod`. */
const COUNTS: Record<string, number> = { down: 9, up: 9, grace: 8, started: 8, new: 8, paused: 8 };

async function seedAllStatuses(project: TestProject): Promise<void> {
  const now = Date.now();
  let i = 0;
  for (const [status, count] of Object.entries(COUNTS)) {
    for (let k = 1; k <= count; k += 1, i += 1) {
      await buildCheck(project, { name: `${status}-${k}`, tags: `${i % 2 ? 'staging' : 'prod'} ${status}`, ...fieldsFor(status, now) });
    }
  }
}

/** The rows' statuses, top to bottom. */
async function rowStatuses(page: Page): Promise<string[]> {
  return page.$$eval('#checks tbody tr', (rows) => rows.map((row) => row.getAttribute('data-status') ?? ''));
}

describe('dashboard in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let served: Served;
  let page: Page;
  let project: TestProject;
  let pageErrors: string[];

  before(async () => {
    browser = await launchBrowser();
    served = await serveApp();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    project = await buildProject();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors, 'script errors on the page').to.deep.equal([]);
  });

  async function signIn(key: string): Promise<void> {
    await page.goto(`${served.origin}/wall/`);
    await page.waitForSelector('#api-key');
    await page.type('#api-key', key);
    await page.click('form.sign-in button[type=submit]');
  }

  async function openDetail(id: string): Promise<void> {
    await page.click(`#checks tbody tr[data-check="${id}"] a`);
    await page.waitForSelector('.timeline');
  }

  it('signs in with the read-write key: 50 checks in every status, down first, with legend, title, filters and actions', async () => {
    await seedAllStatuses(project);
    await signIn(project.apiKey);
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 50);

    const statuses = await rowStatuses(page);
    expect(statuses.slice(0, 9)).to.deep.equal(Array(9).fill('down'));
    for (const [status, count] of Object.entries(COUNTS)) expect(statuses.filter((s) => s === status), status).to.have.length(count);
    expect(await page.title()).to.equal('9 down · Checks · hc-monitor');
    expect(await page.$eval('#access', (el) => el.textContent)).to.equal('read-write key');
    const legend = await page.$$eval('.legend li', (items) => items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    expect(legend).to.deep.equal(['down 9', 'grace 8', 'started 8', 'up 9', 'new 8', 'paused 8']);
    expect(await page.$$('#checks tbody button.action')).to.have.length(50);
    const firstRow = await page.$eval('#checks tbody tr', (row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(firstRow.slice(0, 6)).to.deep.equal(['down', 'down-1', 'proddown', '2 days ago', '—', 'every hour']);
    expect(await page.$eval('#checks tbody tr time', (el) => el.getAttribute('title'))).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'dashboard-list.png') });

    // A tag filters as the API's tag filter does; a second tag narrows it further; the search box too.
    await page.click('#checks tbody tr button.tag[data-focus$=":staging"]');
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 25);
    await page.click('#checks tbody tr[data-status="grace"] button.tag[data-focus$=":grace"]');
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 4);
    expect(new Set(await rowStatuses(page))).to.deep.equal(new Set(['grace']));
    await page.click('.tag-filter button:last-child');
    await page.type('#search', 'paused-');
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 8);
  });

  it('signs in with the read-only key: statuses, flips and badges, but no actions, ping URLs or ping log; a wrong key is refused', async () => {
    const check = await buildCheck(project, { name: 'nightly', ...fieldsFor('down', Date.now()) });
    await signIn('hcr_' + 'x'.repeat(28));
    await page.waitForFunction(() => document.querySelector('#key-error')?.textContent !== '');
    expect(await page.$eval('#key-error', (el) => el.textContent)).to.equal('Not signed in: wrong api key');

    await page.$eval('#api-key', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#api-key', project.apiKeyReadonly);
    await page.click('form.sign-in button[type=submit]');
    const uniqueKey = uniqueKeyOf(check._id);
    await page.waitForSelector(`#checks tbody tr[data-check="${uniqueKey}"]`);
    expect(await page.$eval('#access', (el) => el.textContent)).to.equal('read-only key');
    expect(await page.$$('button.action')).to.have.length(0);
    expect(await page.content()).not.to.contain(check._id);

    await openDetail(uniqueKey);
    const text = await page.$eval('main', (el) => el.textContent ?? '');
    expect(text).to.contain('Ping URLs are shown with the read-write API key.');
    expect(text).to.contain('The ping log is shown with the read-write API key.');
    expect(await page.$('form.edit')).to.equal(null);
    expect(await page.$$('.badges img')).to.have.length(2);
  });

  it('a ping turns a down check up on the open page, and the title follows', async () => {
    const now = Date.now();
    const down = await buildCheck(project, { name: 'backup', ...fieldsFor('down', now) });
    await buildCheck(project, { name: 'report', ...fieldsFor('down', now) });
    await signIn(project.apiKey);
    await page.waitForFunction(() => document.title === '2 down · Checks · hc-monitor');

    const res = await fetch(`${served.origin}/ping/${down._id}`);
    expect(res.status).to.equal(200);
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'up', { timeout: LIVE_MS }, down._id);
    expect(await page.title()).to.equal('1 down · Checks · hc-monitor');
    expect(await page.$eval(`tr[data-check="${down._id}"] time`, (el) => el.textContent)).to.match(/^(just now|\d+ seconds ago)$/);
  });

  it('is usable from the keyboard, and a live update keeps the focus where it was', async () => {
    const check = await buildCheck(project, { name: 'cron-job', tags: 'prod', ...fieldsFor('up', Date.now()) });
    await page.goto(`${served.origin}/wall/`);
    await page.waitForSelector('#api-key');
    await page.keyboard.type(project.apiKey);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`tr[data-check="${check._id}"]`);

    // Tab from the search box to the check's link; the page polls meanwhile, and the focus stays on the link.
    await page.focus('#search');
    let focused = '';
    for (let presses = 0; presses < 20 && focused !== `name:${check._id}`; presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? '');
    }
    expect(focused).to.equal(`name:${check._id}`);
    await fetch(`${served.origin}/ping/${check._id}`);
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"] time`)?.textContent?.match(/^(just now|\d+ seconds ago)$/), { timeout: LIVE_MS }, check._id);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-focus'))).to.equal(`name:${check._id}`);

    // Enter opens the check; its Copy buttons keep the focus across polls too.
    await page.keyboard.press('Enter');
    await page.waitForSelector('.urls button.copy');
    await page.focus('.urls button.copy');
    await new Promise((resolve) => setTimeout(resolve, 2 * 2000 + 500));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-focus'))).to.equal('copy:Success URL');
  });

  it('pauses and resumes a check through the API', async () => {
    const check = await buildCheck(project, { name: 'queue', ...fieldsFor('up', Date.now()) });
    await signIn(project.apiKey);
    await page.waitForSelector(`tr[data-check="${check._id}"] button.action`);

    await page.click(`tr[data-check="${check._id}"] button.action`);
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'paused', { timeout: LIVE_MS }, check._id);
    expect((await Check.findById(check._id).lean())?.status).to.equal('paused');
    expect(await page.$eval(`tr[data-check="${check._id}"] button.action`, (el) => el.textContent)).to.equal('Resume');

    await page.click(`tr[data-check="${check._id}"] button.action`);
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') !== 'paused', { timeout: LIVE_MS }, check._id);
    expect((await Check.findById(check._id).lean())?.status).not.to.equal('paused');
    expect(await page.$eval(`tr[data-check="${check._id}"] button.action`, (el) => el.textContent)).to.equal('Pause');
  });

  it('edits a check: the API validation error shows next to its field, nothing changes, then a valid edit saves', async () => {
    const check = await buildCheck(project, { name: 'etl', tags: 'prod', ...fieldsFor('up', Date.now()) });
    await signIn(project.apiKey);
    await page.waitForSelector(`tr[data-check="${check._id}"]`);
    await openDetail(check._id);
    await page.waitForSelector('#field-timeout');

    await page.$eval('#field-timeout', (el) => ((el as HTMLInputElement).value = '0'));
    await page.click('form.edit button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#field-timeout-error')?.textContent !== '');
    expect(await page.$eval('#field-timeout-error', (el) => el.textContent)).to.equal('json validation error: timeout is too small');
    expect(await page.$eval('#field-timeout', (el) => el.getAttribute('aria-invalid'))).to.equal('true');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('field-timeout');
    expect((await Check.findById(check._id).lean())?.timeout).to.equal(3600);

    await page.$eval('#field-timeout', (el) => ((el as HTMLInputElement).value = '7200'));
    await page.$eval('#field-name', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#field-name', 'etl nightly');
    await page.click('form.edit button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.form-status')?.textContent === 'Saved.');
    const saved = await Check.findById(check._id).lean();
    expect([saved?.name, saved?.timeout, saved?.tags]).to.deep.equal(['etl nightly', 7200, 'prod']);
    expect(await page.$eval('#field-timeout-error', (el) => el.textContent)).to.equal('');
    await page.waitForFunction(() => document.querySelector('.detail-head h1')?.textContent === 'etl nightly');
    expect(await page.$eval('.facts', (el) => el.textContent)).to.contain('every 2 hours');
  });

  it('shows a failed run: exit status, duration and body in the ping log, the 30-day flips timeline, ping URLs and badges', async () => {
    const now = Date.now();
    const check = await buildCheck(project, { name: 'db-backup', ...fieldsFor('up', now), lastPing: new Date(now - 1800 * SECOND_MS) });
    await Flip.create([
      { checkId: check._id, created: new Date(now - 12 * DAY_MS), recorded: new Date(now - 12 * DAY_MS), oldStatus: 'up', newStatus: 'down', reason: 'timeout' },
      { checkId: check._id, created: new Date(now - 11 * DAY_MS), recorded: new Date(now - 11 * DAY_MS), oldStatus: 'down', newStatus: 'up' },
    ]);
    expect((await fetch(`${served.origin}/ping/${check._id}/start`)).status).to.equal(200);
    const failed = await fetch(`${served.origin}/ping/${check._id}/3`, { method: 'POST', body: 'pg_dump: error: disk full\nbackup aborted\n', headers: { 'User-Agent': 'backup.sh/1.0' } });
    expect(failed.status).to.equal(200);

    await signIn(project.apiKey);
    await page.waitForSelector(`tr[data-check="${check._id}"][data-status="down"]`);
    await openDetail(check._id);
    await page.waitForSelector('.pings tbody tr[data-type="fail"] .body-preview');

    const row = await page.$eval('.pings tbody tr[data-type="fail"]', (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(row[0]).to.equal('5');
    expect(row[1]).to.equal('failure (exit status 3)');
    expect(row[3]).to.match(/^\d+(\.\d+)? s$/);
    expect(row[4]).to.equal('http POST 127.0.0.1');
    expect(row[5]).to.equal('backup.sh/1.0');
    expect(row[6]).to.contain('pg_dump: error: disk full').and.to.contain('full body');
    expect(await page.$eval('.pings tbody tr[data-type="start"] td:nth-child(2)', (el) => el.textContent)).to.equal('start');

    expect(await page.$$('.timeline rect.period-down')).to.have.length(2);
    expect(await page.$eval('.timeline-figure figcaption', (el) => el.textContent)).to.match(/^Up \d+(\.\d)?%, down \d+(\.\d)?%, not monitored 0% of the last 30 days; 3 flips\.$/);
    const urls = await page.$$eval('.urls code', (codes) => codes.map((c) => c.textContent));
    expect(urls).to.have.length(5);
    expect(urls[0]).to.match(new RegExp(`/ping/${check._id}$`));
    expect(await page.$eval('.snippet', (el) => el.textContent)).to.equal(`curl -fsS -m 10 --retry 5 -o /dev/null ${urls[0]}`);
    expect(await page.$$eval('.urls button.copy', (buttons) => buttons.length)).to.equal(5);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.badges img')].every((img) => img.complete && img.naturalWidth > 0));
    expect(await page.title()).to.equal('down: db-backup · hc-monitor');
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'dashboard-detail.png'), fullPage: true });

    await page.click('.pings tbody tr[data-type="fail"] a');
    await page.waitForFunction(() => document.querySelector('.body-full')?.textContent?.includes('backup aborted'));
    expect(await page.$eval('.body-full', (el) => el.textContent)).to.equal('pg_dump: error: disk full\nbackup aborted\n');
  });
});
