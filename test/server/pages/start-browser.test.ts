/**
 * The web app end to end as a person first meets it (docs/web-app.md, "Getting started"): `npm start`'s process (dist/scripts/start.js)
 * on an empty database of its own, with a Redis it starts itself; the real `hc-admin user create`; then chromium signs
 * in, creates a project, creates a read-only API key and revokes it, invites a second user who signs up through the
 * link as read-only and sees checks without edit controls; the owner adds an integration, creates a cron check with
 * the 5-run preview and that channel, pings it with a real curl at the URL the page shows, sees it go up live, and
 * deletes it. Screenshots of the sign-in page, the project list, the check editor with its preview, the members page
 * and the checks list go to TEST_OUTPUT_DIR (`.data/test-output/`; docs/screenshots/ holds copies).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import mongoose from 'mongoose';
import type { Browser } from 'puppeteer-core';
import { launchBrowser, TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { WebPage } from '../../helpers/pages.js';
import { startNode, waitForOutput, type Child } from '../../helpers/processes.js';
import { freePort, TEST_DB } from '../../helpers/services.js';
import { testContext } from '../../helpers/hooks.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

const run = promisify(execFile);
/** How long a live change may take to show: the list polls every 2 s. */
const LIVE_MS = 8000;

/** The settings only the test run has (test/helpers/env.ts), left out so the service runs as a user starts it. */
const AS_A_USER = { NODE_ENV: undefined, TEST_MIN_PERIOD_SECONDS: undefined, QUEUE_PREFIX: undefined, SECRET_KEY: undefined };

describe('web app from npm start, in a browser', function () {
  this.timeout(180_000);
  let browser: Browser;
  let dir: string;
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
    dir = mkdtempSync(join(tmpdir(), 'hc-webapp-e2e-'));
    const url = new URL(testContext().services.mongoUri);
    url.pathname = `/${TEST_DB}_start`;
    mongoUri = url.toString();
    const [http, smtp, redis] = [await freePort(), await freePort(), await freePort()];
    origin = `http://127.0.0.1:${http}`;
    // Every port its own; nothing listens on the Redis one, so npm start starts a redis-server there (data in `dir`).
    env = {
      ...AS_A_USER, PORT: String(http), BASE_URL: origin, SMTP_PORT: String(smtp), SMTP_HOST: '127.0.0.1',
      MONGODB_URI: mongoUri, REDIS_URL: `redis://127.0.0.1:${redis}`, LOCAL_DATA_DIR: dir,
    };
  });
  afterEach(async () => {
    // Its own shutdown stops the redis-server it started (a SIGKILL would leave it running).
    await service?.stop('SIGTERM').catch(() => undefined);
    service = undefined;
    const db = await mongoose.createConnection(mongoUri).asPromise();
    await db.dropDatabase();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks from the first user to a team watching a cron check go up', async () => {
    service = startNode('scripts/start.js', env);
    await waitForOutput(service, '"msg":"listening"', 90_000);
    const created = await runCli(['user', 'create', '--email', 'owner@example.org'], env);
    expect(created.code, created.stderr).to.equal(0);
    const { password, sign_in_url: signInUrl } = jsonOf(created) as { password: string; sign_in_url: string };
    expect(signInUrl).to.equal(`${origin}/signin/`);

    // Sign in, from the keyboard.
    const owner = await WebPage.open(browser, origin);
    await owner.goto('/');
    expect(owner.path()).to.equal('/signin/');
    await owner.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-sign-in.png') });
    await owner.page.focus('#email');
    await owner.page.keyboard.type('owner@example.org');
    await owner.page.keyboard.press('Tab');
    await owner.page.keyboard.type(password);
    await Promise.all([owner.page.waitForNavigation(), owner.page.keyboard.press('Enter')]);
    expect(owner.path()).to.equal('/projects/');

    // Create a project.
    const base = await owner.createProject('Backups');
    expect(base).to.match(/^\/projects\/[^/]+\/$/);

    // A read-only API key: shown once, works, revoked, refused.
    await owner.goto(`${base}settings/`);
    await owner.fill('#key-name', 'wall display');
    await owner.page.select('#key-access', 'ro');
    await owner.submit('form[action$="/keys/"] button');
    const key = await owner.text('#new-key');
    expect(key).to.match(/^hcr_/);
    const listWith = async (apiKey: string) => (await fetch(`${origin}/api/v3/checks/`, { headers: { 'X-Api-Key': apiKey } })).status;
    expect(await listWith(key)).to.equal(200);
    await owner.submit('#api-keys form[action$="/revoke"] button');
    expect(await listWith(key)).to.equal(401);

    // Invite a second user as read-only.
    await owner.goto(`${base}members/`);
    await owner.fill('#invite-email', 'viewer@example.org');
    await owner.page.select('#invite-role', 'ro');
    await owner.submit('form[action$="/members/invite"] button');
    const link = new URL(await owner.text('#invite-link'));
    expect(link.origin).to.equal(origin);

    // An integration to assign: email to the on-call address.
    await owner.goto(`${base}integrations/`);
    await owner.page.select('#channel-kind', 'email');
    await owner.fill('#channel-name', 'ops mail');
    await owner.fill('#email-address', 'ops@example.org');
    await owner.submit('form.channel-form button.primary');
    expect(await owner.text('#integrations')).to.contain('ops mail');

    // Create a cron check: the preview follows the expression, with the API's message for a bad one.
    await owner.goto(base);
    await owner.submit(`a[href="${base}checks/new/"]`);
    await owner.fill('#name', 'nightly backup');
    await owner.page.click('input[name="kind"][value="cron"]');
    await owner.fill('#schedule', '0 61 * * *');
    await owner.page.waitForFunction(() => document.querySelector('#schedule-error')?.textContent === 'schedule is not a valid cron or OnCalendar expression');
    await owner.fill('#schedule', '30 2 * * *');
    await owner.fill('#tz', 'Europe/Riga');
    await owner.page.waitForFunction(() => document.querySelectorAll('#preview li').length === 5 && document.querySelector('#schedule-error')?.textContent === '');
    const runs = await owner.page.$$eval('#preview time', (times) => times.map((t) => t.textContent ?? ''));
    for (const text of runs) expect(text).to.match(/^\w{3} \d{4}-\d\d-\d\d 02:30 EE[S]?T$/);
    // The project's integration is ticked already: a new check made in the web app gets every integration.
    expect(await owner.page.$eval('input[name="channel"]', (box) => box.checked)).to.equal(true);
    await owner.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-check-editor.png'), fullPage: true });
    await owner.submit('form.editor button[type=submit]');
    const checkPath = owner.path();
    const checkId = checkPath.split('/').at(-2) ?? '';
    expect(checkPath).to.equal(`${base}checks/${checkId}/`);
    expect(await owner.text('.facts dd')).to.match(/^30 2 \* \* \* in Europe\/Riga, grace \d+ \w+( \d+ \w+)?$/);
    expect(await owner.text('#check-channels')).to.equal('ops mail');
    const pingUrl = await owner.text('#ping-url');
    expect(pingUrl).to.equal(`${origin}/ping/${checkId}`);

    // The second user signs up through the link, joins read-only, sees the check and no edit controls.
    const viewer = await WebPage.open(browser, origin);
    await viewer.goto(link.pathname);
    await viewer.submit('a[href^="/signup/?invite="]');
    // The invited address only: filled in and read-only.
    expect(await viewer.page.$eval('#email', (input) => [(input as HTMLInputElement).value, (input as HTMLInputElement).readOnly])).to.deep.equal(['viewer@example.org', true]);
    await viewer.fill('#password', 'viewer password');
    await viewer.submit('form[action="/signup/"] button');
    // Signing up used the invitation: signed in, its link leads into the project.
    await viewer.signIn('viewer@example.org', 'viewer password');
    expect(viewer.path()).to.equal(base);
    expect(await viewer.text('nav.tabs .role')).to.equal('Your role: read-only');
    expect(await viewer.page.$$eval('#checks tbody tr', (rows) => rows.length)).to.equal(1);
    expect(await viewer.page.$(`a[href="${base}checks/new/"]`)).to.equal(null);
    await viewer.submit(`#checks a[href="${checkPath}"]`);
    expect(await viewer.page.$$('a[href$="/edit/"], form[action$="/pause"], #ping-url')).to.have.length(0);

    // Ping it with curl at the URL the page showed: the owner's open list turns it up without a reload.
    await owner.goto(base);
    const status = () => owner.page.$eval(`tr[data-check="${checkId}"]`, (row) => row.getAttribute('data-status'));
    expect(await status()).to.equal('new');
    expect((await run('curl', ['-fsS', '-m', '10', pingUrl])).stdout).to.equal('OK');
    await owner.page.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'up', { timeout: LIVE_MS }, checkId);
    await owner.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-checks.png') });
    await owner.goto('/projects/');
    await owner.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-projects.png') });

    await owner.goto(`${base}members/`);
    expect(await owner.text('tr[data-member="viewer@example.org"] .member-role')).to.equal('read-only');
    await owner.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-members.png'), fullPage: true });

    // Delete the check after the confirmation page: gone from the list and from the API.
    await owner.goto(checkPath);
    await owner.submit('a.button.danger[href$="/delete/"]');
    await owner.submit('#confirm-delete');
    expect(owner.path()).to.equal(base);
    expect(await owner.page.$(`tr[data-check="${checkId}"]`)).to.equal(null);
    expect((await fetch(`${origin}/ping/${checkId}`)).status).to.equal(404);
    expect([...owner.errors, ...viewer.errors], 'script errors on the pages').to.deep.equal([]);
    expect(await service.stop('SIGTERM')).to.equal(0);
  });
});
