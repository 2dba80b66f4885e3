/**
 * The web app in a real browser (issue 20, Tests): hc-admin creates the first user; chromium signs in, creates a
 * project, creates a read-only API key and revokes it, invites a second user who signs up through the link as
 * read-only and sees checks without edit controls; the owner creates a cron check with the 5-run preview, assigns a
 * channel, pings it with curl, sees it go up live, and deletes it. Screenshots of the sign-in page, the project list,
 * the check editor with its preview and the members page go to TEST_OUTPUT_DIR (`.data/test-output/`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { Channel } from '../../../shared/models/channel.js';
import { buildChannel } from '../../helpers/factories.js';
import { startReceiver } from '../../helpers/receiver.js';
import { launchBrowser, serveApp, TEST_OUTPUT_DIR, type Served } from '../../helpers/browser.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

const run = promisify(execFile);
/** How long a live change may take to show: the list polls every 2 s. */
const LIVE_MS = 8000;

describe('web app in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let served: Served;
  let errors: string[];

  before(async () => {
    browser = await launchBrowser();
    served = await serveApp();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    page.on('pageerror', (err) => errors.push(String(err)));
    return page;
  }

  async function fill(page: Page, selector: string, text: string): Promise<void> {
    await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(selector, text);
  }

  async function submit(page: Page, selector: string): Promise<void> {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await fill(page, '#email', email);
    await fill(page, '#password', password);
    await submit(page, 'form.sign-in button[type=submit]');
  }

  it('walks from the first user to a team watching a cron check go up', async () => {
    errors = [];
    const created = await runCli(['user', 'create', '--email', 'owner@example.org']);
    expect(created.code, created.stderr).to.equal(0);
    const { password } = jsonOf(created) as { password: string };

    // Sign in, from the keyboard.
    const owner = await newPage();
    await owner.goto(`${served.origin}/`);
    expect(new URL(owner.url()).pathname).to.equal('/signin/');
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-sign-in.png') });
    await owner.focus('#email');
    await owner.keyboard.type('owner@example.org');
    await owner.keyboard.press('Tab');
    await owner.keyboard.type(password);
    await Promise.all([owner.waitForNavigation(), owner.keyboard.press('Enter')]);
    expect(new URL(owner.url()).pathname).to.equal('/projects/');

    // Create a project.
    await owner.type('#project-name', 'Backups');
    await submit(owner, 'form[action="/projects/"] button');
    const project = await Project.findOne({ name: 'Backups' }).lean();
    const base = `/projects/${project?._id}/`;
    expect(new URL(owner.url()).pathname).to.equal(base);
    const channel = await buildChannel({ project: project as ProjectDoc, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'ops mail' });

    // A read-only API key: shown once, works, revoked, refused.
    await owner.goto(`${served.origin}${base}settings/`);
    await owner.type('#key-name', 'wall display');
    await owner.select('#key-access', 'ro');
    await submit(owner, 'form[action$="/keys/"] button');
    const key = await owner.$eval('#new-key', (el) => el.textContent ?? '');
    expect(key).to.match(/^hcr_/);
    expect((await fetch(`${served.origin}/api/v3/checks/`, { headers: { 'X-Api-Key': key } })).status).to.equal(200);
    await submit(owner, '#api-keys form[action$="/revoke"] button');
    expect((await fetch(`${served.origin}/api/v3/checks/`, { headers: { 'X-Api-Key': key } })).status).to.equal(401);

    // Invite a second user as read-only.
    await owner.goto(`${served.origin}${base}members/`);
    await owner.type('#invite-email', 'viewer@example.org');
    await owner.select('#invite-role', 'ro');
    await submit(owner, 'form[action$="/members/invite"] button');
    const link = new URL(await owner.$eval('#invite-link', (el) => el.textContent ?? ''));

    // Create a cron check: the preview follows the expression, with the API's message for a bad one.
    await owner.goto(`${served.origin}${base}`);
    await submit(owner, `a[href="${base}checks/new/"]`);
    await fill(owner, '#name', 'nightly backup');
    await owner.click('input[name="kind"][value="cron"]');
    await fill(owner, '#schedule', '0 61 * * *');
    await owner.waitForFunction(() => document.querySelector('#schedule-error')?.textContent === 'schedule is not a valid cron or OnCalendar expression');
    await fill(owner, '#schedule', '30 2 * * *');
    await fill(owner, '#tz', 'Europe/Riga');
    await owner.waitForFunction(() => document.querySelectorAll('#preview li').length === 5 && document.querySelector('#schedule-error')?.textContent === '');
    const runs = await owner.$$eval('#preview time', (times) => times.map((t) => t.textContent ?? ''));
    for (const text of runs) expect(text).to.match(/^\w{3} \d{4}-\d\d-\d\d 02:30 EE[S]?T$/);
    await owner.click(`input[name="channel"][value="${channel._id}"]`);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-check-editor.png'), fullPage: true });
    await submit(owner, 'form.editor button[type=submit]');
    const check = await Check.findOne({ name: 'nightly backup' }).lean();
    expect(check).to.include({ kind: 'cron', schedule: '30 2 * * *', tz: 'Europe/Riga' });
    expect(check?.channels).to.deep.equal([channel._id]);
    expect(await owner.$eval('#check-channels', (el) => el.textContent)).to.equal('ops mail');

    // The second user signs up through the link, joins read-only, sees the check and no edit controls.
    const viewer = await newPage();
    await viewer.goto(`${served.origin}${link.pathname}`);
    await submit(viewer, 'a[href^="/signup/?invite="]');
    await fill(viewer, '#email', 'viewer@example.org');
    await fill(viewer, '#password', 'viewer password');
    await submit(viewer, 'form[action="/signup/"] button');
    await signIn(viewer, 'viewer@example.org', 'viewer password');
    expect(new URL(viewer.url()).pathname).to.equal(link.pathname);
    await submit(viewer, 'form[action^="/invite/"] button');
    expect(new URL(viewer.url()).pathname).to.equal(base);
    expect(await viewer.$eval('nav.tabs .role', (el) => el.textContent)).to.equal('Your role: read-only');
    expect(await viewer.$$eval('#checks tbody tr', (rows) => rows.length)).to.equal(1);
    expect(await viewer.$(`a[href="${base}checks/new/"]`)).to.equal(null);
    await submit(viewer, `#checks a[href="${base}checks/${check?._id}/"]`);
    expect(await viewer.$$('a[href$="/edit/"], form[action$="/pause"], #ping-url')).to.have.length(0);

    // Ping it with curl: the owner's open list turns it up without a reload.
    await owner.goto(`${served.origin}${base}`);
    expect(await owner.$eval(`tr[data-check="${check?._id}"]`, (row) => row.getAttribute('data-status'))).to.equal('new');
    await run('curl', ['-fsS', '-m', '10', `${served.origin}/ping/${check?._id}`]);
    await owner.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'up', { timeout: LIVE_MS }, check?._id);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-checks.png') });
    await owner.goto(`${served.origin}/projects/`);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-projects.png') });

    await owner.goto(`${served.origin}${base}members/`);
    expect(await owner.$eval('tr[data-member="viewer@example.org"] .member-role', (el) => el.textContent)).to.equal('read-only');
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-members.png'), fullPage: true });

    // Delete the check after the confirmation page.
    await owner.goto(`${served.origin}${base}checks/${check?._id}/`);
    await submit(owner, 'a.button.danger[href$="/delete/"]');
    await submit(owner, '#confirm-delete');
    expect(new URL(owner.url()).pathname).to.equal(base);
    expect(await Check.countDocuments()).to.equal(0);
    expect(errors, 'script errors on the pages').to.deep.equal([]);
  });

  it('is usable on a phone-sized screen: no sideways scrolling on the sign-in page and the check list', async () => {
    errors = [];
    const page = await newPage();
    await page.setViewport({ width: 375, height: 740 });
    await page.goto(`${served.origin}/signin/`);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).to.equal(0);
    const created = jsonOf(await runCli(['user', 'create', '--email', 'phone@example.org'])) as { password: string };
    await signIn(page, 'phone@example.org', created.password);
    await page.type('#project-name', 'On the go');
    await submit(page, 'form[action="/projects/"] button');
    expect(await overflow()).to.equal(0);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-phone.png') });
    expect(errors).to.deep.equal([]);
  });

  it('adds a webhook integration to a local receiver, tests it and sees it delivered', async () => {
    errors = [];
    const receiver = await startReceiver();
    try {
      const created = jsonOf(await runCli(['user', 'create', '--email', 'hooks@example.org'])) as { password: string };
      const page = await newPage();
      await page.goto(`${served.origin}/signin/`);
      await signIn(page, 'hooks@example.org', created.password);
      await page.type('#project-name', 'Alerts');
      await submit(page, 'form[action="/projects/"] button');
      await submit(page, 'nav.tabs a[href$="/integrations/"]');
      // The script shows the chosen kind's fields at once (its Choose button is for pages without it).
      const shown = () => page.$$eval('fieldset.kind-fields', (sets) => sets.filter((set) => !set.hidden).map((set) => set.dataset.kind));
      expect(await page.$eval('form.channel-form .choose-kind', (el) => (el as HTMLElement).hidden)).to.equal(true);
      await page.select('#channel-kind', 'telegram');
      expect(await shown()).to.deep.equal(['telegram']);
      expect(await page.$eval('#telegram-chat_id', (el) => el.getAttribute('aria-describedby'))).to.equal('telegram-chat_id-hint');
      await page.select('#channel-kind', 'webhook');
      expect(await shown()).to.deep.equal(['webhook']);
      await fill(page, '#channel-name', 'local receiver');
      await fill(page, '#webhook-url', 'not a url');
      await submit(page, 'form.channel-form button.primary');
      expect(await page.$eval('#url-error', (el) => el.textContent)).to.contain('"url" must be a valid uri');
      expect(await page.$eval('#webhook-url', (el) => [el.getAttribute('aria-invalid'), el.getAttribute('aria-describedby'), el === document.activeElement])).to.deep.equal(['true', 'webhook-url-hint url-error', true]);
      expect(await Channel.countDocuments({ name: 'local receiver' })).to.equal(0);
      await fill(page, '#webhook-url', `${receiver.url}/alert`);
      await page.select('#channel-notify', 'down');
      await submit(page, 'form.channel-form button.primary');
      expect(await page.$eval('#integrations', (el) => el.textContent)).to.contain('local receiver').and.contain('webhook');
      await submit(page, '#integrations form[action$="/test"] button');
      expect(await page.$eval('#test-result', (el) => el.textContent)).to.contain('Test: delivered');
      expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/alert']);
      await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integrations.png'), fullPage: true });
      // On a phone, the form (and the list) fits without sideways scrolling.
      await page.setViewport({ width: 375, height: 740 });
      await page.select('#channel-kind', 'webhook');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.equal(0);
      // Editing never shows the stored URL back; its field says that empty keeps it.
      await submit(page, '#integrations a.button[href$="/edit/"]');
      expect(await page.$eval('#webhook-url', (el) => (el as HTMLInputElement).value)).to.equal('');
      expect(await page.$eval('#webhook-url-hint', (el) => el.textContent)).to.contain('A value is stored: leave this empty to keep it.');
      await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integration-edit-phone.png'), fullPage: true });
      expect(errors).to.deep.equal([]);
    } finally {
      await receiver.close();
    }
  });
});
