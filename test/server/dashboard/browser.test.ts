/**
 * The wall display in a real browser (issues 9 and 20): chromium shows a project with its read-only API key (a wrong
 * key and a read-write key are refused, with a pointer to the real sign-in), reads 50 checks in every status, follows
 * a live change, and reads a check's 30-day timeline and badges; every API request it makes is a GET. Screenshots of
 * the list and the check page are saved to TEST_OUTPUT_DIR (`.data/test-output/`).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import type { CheckDoc } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { useBrowser } from '../../helpers/pages.js';

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

describe('wall display in a browser', function () {
  this.timeout(60_000);
  const fixture = useBrowser();
  let page: Page;
  let project: TestProject;
  let pageErrors: string[];
  /** `METHOD path` of every API request the page made. */
  let apiCalls: string[];

  beforeEach(async () => {
    project = await buildProject();
    page = await fixture.browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    pageErrors = [];
    apiCalls = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(`${req.method()} ${url.pathname}`);
    });
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors, 'script errors on the page').to.deep.equal([]);
    expect(apiCalls.filter((call) => !call.startsWith('GET ')), 'API requests other than GET').to.deep.equal([]);
  });

  async function signIn(key: string): Promise<void> {
    await page.goto(`${fixture.origin}/wall/`);
    await page.waitForSelector('#api-key');
    await page.type('#api-key', key);
    await page.click('form.sign-in button[type=submit]');
  }

  async function openDetail(id: string): Promise<void> {
    await page.click(`#checks tbody tr[data-check="${id}"] a`);
    await page.waitForSelector('.timeline');
  }

  it('says it is a read-only wall display and points to the real sign-in; refuses a wrong key and a read-write key', async () => {
    await page.goto(`${fixture.origin}/wall/`);
    await page.waitForSelector('#api-key');
    expect(await page.$eval('h1', (el) => el.textContent)).to.equal('Wall display (read-only)');
    expect(await page.$eval('#wall-label', (el) => el.textContent)).to.equal('Wall display: read-only');
    expect(await page.$eval('#sign-in-link', (el) => el.getAttribute('href'))).to.equal('/signin/');
    expect(await page.$eval('label[for="api-key"]', (el) => el.textContent)).to.equal('Read-only API key');

    await signIn('hcr_' + 'x'.repeat(28));
    await page.waitForFunction(() => document.querySelector('#key-error')?.textContent !== '');
    expect(await page.$eval('#key-error', (el) => el.textContent)).to.equal('Not signed in: wrong api key');

    await page.$eval('#api-key', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#api-key', project.apiKey);
    await page.click('form.sign-in button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#key-error')?.textContent?.includes('read-write'));
    expect(await page.$eval('#key-error', (el) => el.textContent)).to.equal(
      'Not signed in: this is a read-write key. The wall display takes a read-only API key; to change checks, sign in with your email address.',
    );
    expect(await page.evaluate(() => sessionStorage.length)).to.equal(0);
    expect(await page.$('#checks')).to.equal(null);
  });

  it('shows 50 checks in every status with the read-only key, down first, with legend, title and filters, and no actions', async () => {
    await seedAllStatuses(project);
    await signIn(project.apiKeyReadonly);
    await page.waitForFunction(() => document.querySelectorAll('#checks tbody tr').length === 50);

    const statuses = await rowStatuses(page);
    expect(statuses.slice(0, 9)).to.deep.equal(Array(9).fill('down'));
    for (const [status, count] of Object.entries(COUNTS)) expect(statuses.filter((s) => s === status), status).to.have.length(count);
    expect(await page.title()).to.equal('9 down · Checks · hc-monitor');
    const legend = await page.$$eval('.legend li', (items) => items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    expect(legend).to.deep.equal(['down 9', 'grace 8', 'started 8', 'up 9', 'new 8', 'paused 8']);
    expect(await page.$$('#checks tbody button:not(.tag)')).to.have.length(0);
    const firstRow = await page.$eval('#checks tbody tr', (row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(firstRow).to.deep.equal(['down', 'down-1', 'proddown', '2 days ago', '—', 'every hour']);
    expect(await page.$eval('#checks tbody tr time', (el) => el.getAttribute('title'))).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'dashboard-list.png') });
    expect(apiCalls).to.include.members(['GET /api/v3/checks/', 'GET /api/v3/channels/']);

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

  it('a ping turns a down check up on the open page, and the title follows', async () => {
    const now = Date.now();
    const down = await buildCheck(project, { name: 'backup', ...fieldsFor('down', now) });
    await buildCheck(project, { name: 'report', ...fieldsFor('down', now) });
    await signIn(project.apiKeyReadonly);
    await page.waitForFunction(() => document.title === '2 down · Checks · hc-monitor');

    const res = await fetch(`${fixture.origin}/ping/${down._id}`);
    expect(res.status).to.equal(200);
    const row = `tr[data-check="${uniqueKeyOf(down._id)}"]`;
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-status') === 'up', { timeout: LIVE_MS }, row);
    expect(await page.title()).to.equal('1 down · Checks · hc-monitor');
    expect(await page.$eval(`${row} time`, (el) => el.textContent)).to.match(/^(just now|\d+ seconds ago)$/);
  });

  it('is usable from the keyboard, and a live update keeps the focus where it was', async () => {
    const check = await buildCheck(project, { name: 'cron-job', tags: 'prod', ...fieldsFor('up', Date.now()) });
    const key = uniqueKeyOf(check._id);
    await page.goto(`${fixture.origin}/wall/`);
    await page.waitForSelector('#api-key');
    await page.keyboard.type(project.apiKeyReadonly);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`tr[data-check="${key}"]`);

    // Tab from the search box to the check's link; the page polls meanwhile, and the focus stays on the link.
    await page.focus('#search');
    let focused = '';
    for (let presses = 0; presses < 20 && focused !== `name:${key}`; presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? '');
    }
    expect(focused).to.equal(`name:${key}`);
    await fetch(`${fixture.origin}/ping/${check._id}`);
    await page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"] time`)?.textContent?.match(/^(just now|\d+ seconds ago)$/), { timeout: LIVE_MS }, key);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-focus'))).to.equal(`name:${key}`);

    // Enter opens the check.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.detail-head h1')?.textContent === 'cron-job');
  });

  it("shows a check's 30-day timeline, statuses and badges, and no ping URLs, ping log or settings", async () => {
    const now = Date.now();
    const check = await buildCheck(project, { name: 'db-backup', ...fieldsFor('up', now), lastPing: new Date(now - 1800 * SECOND_MS) });
    await Flip.create([
      { checkId: check._id, created: new Date(now - 12 * DAY_MS), recorded: new Date(now - 12 * DAY_MS), oldStatus: 'up', newStatus: 'down', reason: 'timeout' },
      { checkId: check._id, created: new Date(now - 11 * DAY_MS), recorded: new Date(now - 11 * DAY_MS), oldStatus: 'down', newStatus: 'up' },
    ]);
    expect((await fetch(`${fixture.origin}/ping/${check._id}/3`, { method: 'POST', body: 'disk full' })).status).to.equal(200);

    await signIn(project.apiKeyReadonly);
    const key = uniqueKeyOf(check._id);
    await page.waitForSelector(`tr[data-check="${key}"][data-status="down"]`);
    await openDetail(key);

    expect(await page.$$('.timeline rect.period-down')).to.have.length(2);
    expect(await page.$eval('.timeline-figure figcaption', (el) => el.textContent)).to.match(/^Up \d+(\.\d)?%, down \d+(\.\d)?%, not monitored 0% of the last 30 days; 3 flips\.$/);
    expect(await page.$eval('.facts', (el) => el.textContent)).to.contain('every hour');
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.badges img')].every((img) => img.complete && img.naturalWidth > 0));
    expect(await page.$$('.badges img')).to.have.length(2);
    expect(await page.$$('.urls, .pings, form, button:not(#sign-out)')).to.have.length(0);
    expect(await page.content()).not.to.contain(check._id);
    expect(await page.title()).to.equal('down: db-backup · hc-monitor');
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'dashboard-detail.png'), fullPage: true });
  });
});
