/**
 * The web app end to end from `npm start`, as a new user (docs/web-app.md, "Getting started", "The checks list"): the process (dist/scripts/start.js)
 * on an empty database of its own, with a Redis it starts itself and its mail sent to a real local SMTP receiver;
 * the real `hc-admin user create`; then chromium: a project, a confirmed email integration and two simple checks; a
 * real curl posts a multi-line output file whose body shows as text in the events list and on the ping's page; a
 * `/start` and a success ping show the run's duration and its chart with a table; the integration is switched off
 * from the list's per-row toggle; a `/fail` ping turns the open list's tab title and favicon down, live; the alert
 * mail's link leads a signed-out browser through sign-in to the check; a second project with 10,000 checks seeded
 * into the service's database is filtered by a tag chip and a status, sorted and searched; a read-only key opens the
 * wall without controls; the theme switch applies at once and persists. axe-core scans the check and ping pages.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import mongoose from 'mongoose';
import type { Browser } from 'puppeteer-core';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { seriousFindings } from '../../helpers/axe.js';
import { launchBrowser } from '../../helpers/browser.js';
import { WebPage } from '../../helpers/pages.js';
import { waitFor } from '../../helpers/poll.js';
import { startNode, waitForOutput, type Child } from '../../helpers/processes.js';
import { freePort, TEST_DB } from '../../helpers/services.js';
import { testContext } from '../../helpers/hooks.js';
import { startSmtp, type ReceivedMail, type SmtpReceiver } from '../../helpers/smtp-receiver.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

const run = promisify(execFile);
/** How long a live change or a worker's mail may take, in milliseconds (the list polls every 2 s). */
const LIVE_MS = 30_000;
/** How long the owner's page may take to load, in milliseconds. */
const PAGE_MS = 180_000;

/** The settings only the test run has (test/helpers/env.ts), left out so the service runs as a user starts it. */
const AS_A_USER = { NODE_ENV: undefined, TEST_MIN_PERIOD_SECONDS: undefined, QUEUE_PREFIX: undefined, SECRET_KEY: undefined };

/** The job's output the curl posts: several lines, one with markup and quotes that must stay text. */
const OUTPUT = 'backup started\nwrote 42 files\n<b>&"\' not bold\ndone\n';

/** Checks seeded in the second project, and their tags (as scripts/bench/pages-list.ts seeds them). */
const SEEDED = 10_000;
const TAGS = ['backup', 'db', 'web', 'nightly'];
const DAY_S = 86_400;

/** The `i`-th seeded check: every 7th down, every 11th paused, every 13th new, the rest up; two tags each. */
function seededCheck(projectId: string, i: number, now: number): Partial<CheckDoc> {
  const lastPing = new Date(now - (i % 600) * 60_000);
  const base = {
    _id: randomUUID(), projectId, badgeKey: randomUUID(), created: new Date(now - (SEEDED - i) * 1000),
    name: `job-${String(i).padStart(5, '0')}`, slug: `job-${i}`, tags: `${TAGS[i % TAGS.length]} ${TAGS[(i * 3 + 1) % TAGS.length]}`,
    timeout: DAY_S, grace: 3600, lastPing, status: 'up' as const, deadline: new Date(lastPing.getTime() + (DAY_S + 3600) * 1000),
  };
  if (i % 7 === 0) return { ...base, status: 'down', deadline: null };
  if (i % 11 === 0) return { ...base, status: 'paused', deadline: null };
  if (i % 13 === 0) return { ...base, status: 'new', lastPing: null, deadline: null };
  return base;
}

/** The first mail to `to` whose text contains `text`, waited for. */
function mailWith(smtp: SmtpReceiver, to: string, text: string): Promise<ReceivedMail> {
  return waitFor(`a mail to ${to} with "${text}"`, () => Promise.resolve(smtp.messages.find((m) => m.to.includes(to) && (m.mail.text ?? '').includes(text))), LIVE_MS);
}

/** Drops the service's database (before, in case a killed run left it, and after). */
async function dropDatabase(uri: string): Promise<void> {
  const db = await mongoose.createConnection(uri).asPromise();
  await db.dropDatabase();
  await db.close();
}

describe('web app from npm start, in a browser, as a new user', function () {
  this.timeout(600_000);
  let browser: Browser;
  let dir: string;
  let smtp: SmtpReceiver;
  let service: Child | undefined;
  /** Where the service keeps its data: a database of its own, new and empty, on the run's server. */
  let mongoUri: string;
  let origin: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hc-webapp-new-user-'));
    smtp = await startSmtp();
    const url = new URL(testContext().services.mongoUri);
    url.pathname = `/${TEST_DB}_start_webapp`;
    mongoUri = url.toString();
    await dropDatabase(mongoUri);
    const [http, smtpd, redis] = [await freePort(), await freePort(), await freePort()];
    origin = `http://127.0.0.1:${http}`;
    // Every port its own; nothing listens on the Redis one, so npm start starts a redis-server there (data in `dir`).
    env = {
      ...AS_A_USER, PORT: String(http), BASE_URL: origin, SMTP_PORT: String(smtpd), SMTP_HOST: '127.0.0.1', SMTP_URL: smtp.url,
      MONGODB_URI: mongoUri, REDIS_URL: `redis://127.0.0.1:${redis}`, LOCAL_DATA_DIR: dir,
    };
  });
  afterEach(async () => {
    // Its own shutdown stops the redis-server it started (a SIGKILL would leave it running).
    await service?.stop('SIGTERM').catch(() => undefined);
    service = undefined;
    await smtp.close();
    await dropDatabase(mongoUri);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `npm start`'s process, creates the new user with hc-admin, signs in in chromium and creates a project. */
  async function newUserWithProject(projectName: string): Promise<{ owner: WebPage; password: string; base: string }> {
    service = startNode('scripts/start.js', env);
    await waitForOutput(service, '"msg":"listening"', 90_000);
    const created = await runCli(['user', 'create', '--email', 'new@example.org'], env);
    expect(created.code, created.stderr).to.equal(0);
    const { password } = jsonOf(created) as { password: string };
    const owner = await WebPage.open(browser, origin);
    // The list of 10,000 checks, filtered, takes its time on a loaded machine's FerretDB.
    owner.page.setDefaultNavigationTimeout(PAGE_MS);
    await owner.goto('/');
    await owner.signIn('new@example.org', password);
    expect(owner.path()).to.equal('/projects/');
    return { owner, password, base: await owner.createProject(projectName) };
  }

  it('pings, runs, switches an integration off, alerts, shows a wall and keeps a theme', async () => {
    // The new user signs in and creates a project.
    const { owner, password, base } = await newUserWithProject('Backups');
    const { page } = owner;

    // An email integration, confirmed from the mail its address gets.
    await owner.goto(`${base}integrations/`);
    await page.select('#channel-kind', 'email');
    await owner.fill('#channel-name', 'ops mail');
    await owner.fill('#email-address', 'ops@example.org');
    await owner.submit('form.channel-form button.primary');
    const channelId = await page.$eval('#integrations tbody tr', (row) => row.getAttribute('data-channel') ?? '');
    const confirm = /https?:\/\/\S+\/integrations\/confirm\/\S+/.exec((await mailWith(smtp, 'ops@example.org', '/integrations/confirm/')).mail.text ?? '')?.[0];
    const ops = await WebPage.open(browser, origin);
    await ops.page.goto(confirm ?? expect.fail('no confirmation link'));
    await ops.submit('form.link-confirm button');
    expect(await ops.text('#link-text')).to.contain('now come to this address');
    await owner.goto(`${base}integrations/`);
    expect(await owner.text('#integrations tbody tr')).not.to.contain('unconfirmed');

    /** Creates a simple check from the editor, which has the integration ticked already; answers its path and ping URL. */
    const newCheck = async (name: string): Promise<{ path: string; id: string; pingUrl: string }> => {
      await owner.goto(`${base}checks/new/`);
      await owner.fill('#name', name);
      await page.click('input[name="kind"][value="simple"]');
      expect(await page.$eval(`input[name="channel"][value="${channelId}"]`, (box) => box.checked), 'the integration ticked by default').to.equal(true);
      await owner.submit('form.editor button[type=submit]');
      const path = owner.path();
      expect(await owner.text('#check-channels')).to.equal('ops mail');
      return { path, id: path.split('/').at(-2) ?? '', pingUrl: await owner.text('#ping-url') };
    };
    const backup = await newCheck('nightly backup');
    const invoices = await newCheck('invoices');
    expect(backup.pingUrl).to.equal(`${origin}/ping/${backup.id}`);

    // 1. A real curl posts the job's output; its body is text in the events list's preview and on the ping's page.
    writeFileSync(join(dir, 'output.txt'), OUTPUT);
    expect((await run('curl', ['-fsS', '-m', '10', '--data-binary', '@output.txt', backup.pingUrl], { cwd: dir })).stdout).to.equal('OK');
    await owner.goto(backup.path);
    expect(await owner.text('#ping-1 .preview code')).to.equal(OUTPUT);
    expect(await page.$$('#events-list b')).to.have.length(0);
    await owner.submit('#ping-1 a[href$="/pings/1/"]');
    expect(owner.path()).to.equal(`${backup.path}pings/1/`);
    expect(await owner.text('#ping-body')).to.equal(OUTPUT);
    expect(await page.$$('#ping-body *')).to.have.length(0);
    expect(await seriousFindings(page), 'the ping details page').to.deep.equal([]);

    // 2. A run: /start, then success, with the same run id; its duration shows in the events and in the chart.
    const rid = randomUUID();
    await run('curl', ['-fsS', '-m', '10', `${backup.pingUrl}/start?rid=${rid}`]);
    await run('curl', ['-fsS', '-m', '10', `${backup.pingUrl}?rid=${rid}`]);
    await owner.goto(backup.path);
    const after = await owner.text('#ping-3 .duration');
    expect(after).to.match(/^after \S/);
    expect(await page.$$('#duration-chart svg[role="img"] rect')).to.have.length(1);
    expect(await owner.text('#duration-title')).to.match(/^Durations of the last 1 run,/);
    expect(await owner.text('#duration-stats')).to.match(/^Last 1 run: min /);
    const runRow = await page.$$eval('#runs-table tbody tr td', (cells) => cells.map((c) => c.textContent ?? ''));
    expect(runRow.slice(1)).to.deep.equal([after.slice('after '.length), 'success', rid]);
    expect(await seriousFindings(page), 'the check page').to.deep.equal([]);

    // 4. The integration switched off for one check from the list's per-row toggle; the check page and editor agree.
    await owner.goto(base);
    const toggle = (id: string) => `tr[data-check="${id}"] button.toggle`;
    const pressed = (id: string) => page.$eval(toggle(id), (button) => button.getAttribute('aria-pressed'));
    expect([await pressed(backup.id), await pressed(invoices.id)]).to.deep.equal(['true', 'true']);
    // The list's script switches it in place (without it, the form posts and the list comes back).
    await page.click(toggle(backup.id));
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('aria-pressed') === 'false', { timeout: LIVE_MS }, toggle(backup.id));
    await page.reload();
    expect([await pressed(backup.id), await pressed(invoices.id)]).to.deep.equal(['false', 'true']);
    await owner.goto(backup.path);
    expect(await owner.text('#check-channels')).to.equal('none');
    await owner.goto(`${backup.path}edit/`);
    expect(await page.$eval(`input[name="channel"][value="${channelId}"]`, (box) => box.checked)).to.equal(false);

    // 5. With the list open, a real /fail: the tab title and favicon turn down without a reload.
    await owner.goto(base);
    const plainTitle = await page.$eval('title', (title) => title.dataset.title ?? '');
    expect(plainTitle).to.contain('Backups');
    expect(await page.title()).to.equal(plainTitle);
    expect(await page.$eval('#favicon', (icon) => icon.getAttribute('href'))).to.equal('/static/favicon.svg');
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await run('curl', ['-fsS', '-m', '10', `${invoices.pingUrl}/fail`]);
    await page.waitForFunction((title) => document.title === `1 down · ${title}`, { timeout: LIVE_MS }, plainTitle);
    await page.waitForFunction(() => document.querySelector('#favicon')?.getAttribute('href') === '/static/favicon-down.svg', { timeout: LIVE_MS });
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), 'the same page, not reloaded').to.equal(true);

    // 6. The down alert's mail links to the check; signed out, the link leads through sign-in to the check's page.
    const alert = await mailWith(smtp, 'ops@example.org', 'Details:');
    const link = /^Details: (\S+)$/m.exec(alert.mail.text ?? '')?.[1] ?? expect.fail('no Details link in the alert');
    expect(link).to.equal(`${origin}${invoices.path}`);
    expect(smtp.messages.filter((m) => (m.mail.text ?? '').includes(`${origin}${backup.path}`)), 'alerts of the switched-off check').to.have.length(0);
    const reader = await WebPage.open(browser, origin);
    await reader.page.goto(link);
    expect(reader.path()).to.equal('/signin/');
    await reader.signIn('new@example.org', password);
    expect(reader.page.url()).to.equal(link);
    expect(await reader.text('h1')).to.equal('invoices');
    expect(await reader.text('#check-status')).to.equal('down');

    // 7. The wall: a read-only key made on the settings page, pasted in a fresh browser; no controls anywhere.
    await owner.goto(`${base}settings/`);
    await owner.fill('#key-name', 'lobby screen');
    await page.select('#key-access', 'ro');
    await owner.submit('form[action$="/keys/"] button');
    const key = await owner.text('#new-key');
    const wall = await WebPage.open(browser, origin);
    await wall.goto('/wall/');
    await wall.fill('#key', key);
    await wall.submit('form.wall button[type=submit]');
    expect(wall.path()).to.equal(base);
    expect(await wall.page.$$eval('#checks tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-check')).sort())).to.deep.equal([backup.id, invoices.id].map(uniqueKeyOf).sort());
    // Its only form leaves the wall (the browser's own session); nothing posts to the project.
    expect(await wall.page.$$eval('form[method="post"]', (forms) => forms.map((f) => f.getAttribute('action')))).to.deep.equal(['/wall/leave']);
    const controls = 'form[method="post"]:not([action="/wall/leave"]), button.toggle, .ping-url, a[href$="/edit/"], a[href$="/new/"], a[href$="/delete/"]';
    expect(await wall.page.$$(controls)).to.have.length(0);
    // The wall names checks by their unique_key, never by UUID (the UUID is a ping credential).
    expect(await wall.page.content()).not.to.include(invoices.id);
    await wall.submit(`#checks a[href="${invoices.path.replace(invoices.id, uniqueKeyOf(invoices.id))}"]`);
    expect(await wall.text('h1')).to.equal('invoices');
    expect(await wall.page.$$(`${controls}, main form, main button, #ping-url`)).to.have.length(0);

    // 8. The theme switch applies at once and persists on reload.
    await owner.goto(base);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    /** Chooses a theme in the header's switch and waits for it to be saved. */
    const choose = async (theme: string) => {
      const saved = page.waitForResponse((res) => res.url() === `${origin}/account/theme` && res.request().method() === 'POST');
      await page.select('#theme-select', theme);
      await saved;
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal(theme);
    };
    await choose('light');
    await page.reload();
    const light = await background();
    await choose('dark');
    const dark = await background();
    expect(dark).not.to.equal(light);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark');
    expect(await page.$eval('#theme-select', (select) => (select as HTMLSelectElement).value)).to.equal('dark');
    expect(await background()).to.equal(dark);

    expect([...owner.errors, ...ops.errors, ...reader.errors, ...wall.errors], 'script errors on the pages').to.deep.equal([]);
    expect(await service?.stop('SIGTERM')).to.equal(0);
  });

  it('lists 10,000 seeded checks: a tag chip, a status, a sort, then a search whose row links to its check', async () => {
    const { owner, base: fleet } = await newUserWithProject('Fleet');
    const { page } = owner;
    // 3. A second project with 10,000 checks seeded into the service's database: tag chip, status, sort, search.
    const fleetId = fleet.split('/').at(-2) ?? '';
    const now = Date.now();
    const seeded = Array.from({ length: SEEDED }, (_, i) => seededCheck(fleetId, i, now));
    const db = await mongoose.createConnection(mongoUri).asPromise();
    try {
      const checks = db.model<CheckDoc>(Check.modelName, Check.schema);
      for (let i = 0; i < SEEDED; i += 1000) await checks.insertMany(seeded.slice(i, i + 1000));
    } finally {
      await db.close();
    }
    await owner.goto(fleet);
    expect(await owner.text('#list-count')).to.equal('Showing 1–100 of 10,000');
    await owner.submit('ul.chips a[href$="?tag=backup"]');
    expect(await owner.text('ul.chips a[aria-current="true"]')).to.match(/^backup /);
    await page.click('#list-status-down');
    await page.select('#list-sort', 'name');
    await owner.submit('form.list-filters button[type=submit]');
    const query = new URL(page.url()).searchParams;
    expect([query.getAll('tag'), query.get('status'), query.get('sort')]).to.deep.equal([['backup'], 'down', 'name']);
    const matching = seeded.filter((c) => c.status === 'down' && (c.tags ?? '').split(' ').includes('backup'));
    expect(await owner.text('#list-count')).to.equal(`Showing 1–${Math.min(100, matching.length)} of ${matching.length.toLocaleString('en')} (10,000 in the project)`);
    const rows = await page.$$eval('#checks tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-status'), tr.querySelector('td:nth-child(2) a')?.textContent, tr.querySelector('td:nth-child(2)')?.textContent ?? '']));
    expect(rows.map(([status]) => status)).to.deep.equal(rows.map(() => 'down'));
    for (const [, , cell] of rows) expect(cell).to.match(/\bbackup\b/);
    const names = rows.map(([, name]) => name ?? '');
    // Names as people read them (docs/web-app.md, "The checks list").
    expect(names).to.deep.equal(matching.map((c) => c.name ?? '').sort(new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare).slice(0, 100));
    // Searched within the filter (one list page less on a slow database): a check past the first page.
    const wanted = matching[150] ?? expect.fail('fewer than 151 matching checks');
    await owner.fill('#list-q', wanted.name ?? '');
    await owner.submit('form.list-filters button[type=submit]');
    expect(await page.$$eval('#checks tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-check')))).to.deep.equal([wanted._id]);
    await owner.submit(`#checks tbody tr a[href="${fleet}checks/${wanted._id}/"]`);
    expect(await owner.text('h1')).to.equal(wanted.name);

    expect(owner.errors, 'script errors on the pages').to.deep.equal([]);
    expect(await service?.stop('SIGTERM')).to.equal(0);
  });
});
