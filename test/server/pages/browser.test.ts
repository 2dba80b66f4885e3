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
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { buildChannel } from '../../helpers/factories.js';
import { startReceiver } from '../../helpers/receiver.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

const run = promisify(execFile);
/** How long a live change may take to show: the list polls every 2 s. */
const LIVE_MS = 8000;

describe('web app in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('walks from the first user to a team watching a cron check go up', async () => {
    const created = await runCli(['user', 'create', '--email', 'owner@example.org']);
    expect(created.code, created.stderr).to.equal(0);
    const { password } = jsonOf(created) as { password: string };

    // Sign in, from the keyboard.
    const ownerTab = await WebPage.open(fixture.browser, fixture.origin);
    const owner = ownerTab.page;
    await owner.goto(`${fixture.origin}/`);
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
    await ownerTab.submit('form[action="/projects/"] button');
    const project = await Project.findOne({ name: 'Backups' }).lean();
    const base = `/projects/${project?._id}/`;
    expect(new URL(owner.url()).pathname).to.equal(base);
    const channel = await buildChannel({ project: project as ProjectDoc, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'ops mail' });

    // A read-only API key: shown once, works, revoked, refused.
    await owner.goto(`${fixture.origin}${base}settings/`);
    await owner.type('#key-name', 'wall display');
    await owner.select('#key-access', 'ro');
    await ownerTab.submit('form[action$="/keys/"] button');
    const key = await owner.$eval('#new-key', (el) => el.textContent ?? '');
    expect(key).to.match(/^hcr_/);
    expect((await fetch(`${fixture.origin}/api/v3/checks/`, { headers: { 'X-Api-Key': key } })).status).to.equal(200);
    await ownerTab.submit('#api-keys form[action$="/revoke"] button');
    expect((await fetch(`${fixture.origin}/api/v3/checks/`, { headers: { 'X-Api-Key': key } })).status).to.equal(401);

    // Invite a second user as read-only.
    await owner.goto(`${fixture.origin}${base}members/`);
    await owner.type('#invite-email', 'viewer@example.org');
    await owner.select('#invite-role', 'ro');
    await ownerTab.submit('form[action$="/members/invite"] button');
    const link = new URL(await owner.$eval('#invite-link', (el) => el.textContent ?? ''));

    // Create a cron check: the preview follows the expression, with the API's message for a bad one.
    await owner.goto(`${fixture.origin}${base}`);
    await ownerTab.submit(`a[href="${base}checks/new/"]`);
    await ownerTab.fill('#name', 'nightly backup');
    await owner.click('input[name="kind"][value="cron"]');
    await ownerTab.fill('#schedule', '0 61 * * *');
    await owner.waitForFunction(() => document.querySelector('#schedule-error')?.textContent === 'schedule is not a valid cron or OnCalendar expression');
    await ownerTab.fill('#schedule', '30 2 * * *');
    await ownerTab.fill('#tz', 'Europe/Riga');
    await owner.waitForFunction(() => document.querySelectorAll('#preview li').length === 5 && document.querySelector('#schedule-error')?.textContent === '');
    const runs = await owner.$$eval('#preview time', (times) => times.map((t) => t.textContent ?? ''));
    for (const text of runs) expect(text).to.match(/^\w{3} \d{4}-\d\d-\d\d 02:30 EE[S]?T$/);
    await owner.click(`input[name="channel"][value="${channel._id}"]`);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-check-editor.png'), fullPage: true });
    await ownerTab.submit('form.editor button[type=submit]');
    const check = await Check.findOne({ name: 'nightly backup' }).lean();
    expect(check).to.include({ kind: 'cron', schedule: '30 2 * * *', tz: 'Europe/Riga' });
    expect(check?.channels).to.deep.equal([channel._id]);
    expect(await owner.$eval('#check-channels', (el) => el.textContent)).to.equal('ops mail');

    // The second user signs up through the link, joins read-only, sees the check and no edit controls.
    const viewerTab = await WebPage.open(fixture.browser, fixture.origin);
    const viewer = viewerTab.page;
    await viewer.goto(`${fixture.origin}${link.pathname}`);
    await viewerTab.submit('a[href^="/signup/?invite="]');
    await viewerTab.fill('#email', 'viewer@example.org');
    await viewerTab.fill('#password', 'viewer password');
    await viewerTab.submit('form[action="/signup/"] button');
    await viewerTab.signIn('viewer@example.org', 'viewer password');
    expect(new URL(viewer.url()).pathname).to.equal(link.pathname);
    await viewerTab.submit('form[action^="/invite/"] button');
    expect(new URL(viewer.url()).pathname).to.equal(base);
    expect(await viewer.$eval('nav.tabs .role', (el) => el.textContent)).to.equal('Your role: read-only');
    expect(await viewer.$$eval('#checks tbody tr', (rows) => rows.length)).to.equal(1);
    expect(await viewer.$(`a[href="${base}checks/new/"]`)).to.equal(null);
    await viewerTab.submit(`#checks a[href="${base}checks/${check?._id}/"]`);
    expect(await viewer.$$('a[href$="/edit/"], form[action$="/pause"], #ping-url')).to.have.length(0);

    // Ping it with curl: the owner's open list turns it up without a reload.
    await owner.goto(`${fixture.origin}${base}`);
    expect(await owner.$eval(`tr[data-check="${check?._id}"]`, (row) => row.getAttribute('data-status'))).to.equal('new');
    await run('curl', ['-fsS', '-m', '10', `${fixture.origin}/ping/${check?._id}`]);
    await owner.waitForFunction((id) => document.querySelector(`tr[data-check="${id}"]`)?.getAttribute('data-status') === 'up', { timeout: LIVE_MS }, check?._id);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-checks.png') });
    await owner.goto(`${fixture.origin}/projects/`);
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-projects.png') });

    await owner.goto(`${fixture.origin}${base}members/`);
    expect(await owner.$eval('tr[data-member="viewer@example.org"] .member-role', (el) => el.textContent)).to.equal('read-only');
    await owner.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-members.png'), fullPage: true });

    // Delete the check after the confirmation page.
    await owner.goto(`${fixture.origin}${base}checks/${check?._id}/`);
    await ownerTab.submit('a.button.danger[href$="/delete/"]');
    await ownerTab.submit('#confirm-delete');
    expect(new URL(owner.url()).pathname).to.equal(base);
    expect(await Check.countDocuments()).to.equal(0);
    expect([...ownerTab.errors, ...viewerTab.errors], 'script errors on the pages').to.deep.equal([]);
  });

  it('is usable on a phone-sized screen: no sideways scrolling on the sign-in page and the check list', async () => {
    const phone = { width: 375, height: 740 };
    const overflow = (web: WebPage) => web.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const visitor = await WebPage.open(fixture.browser, fixture.origin, phone);
    await visitor.goto('/signin/');
    expect(await overflow(visitor)).to.equal(0);
    const { web } = await signInToNewProject(fixture, 'phone@example.org', 'On the go', phone);
    expect(await overflow(web)).to.equal(0);
    await web.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-phone.png') });
    expect([...visitor.errors, ...web.errors]).to.deep.equal([]);
  });

  it('adds a webhook integration to a local receiver, tests it and sees it delivered', async () => {
    const receiver = await startReceiver();
    try {
      const { web } = await signInToNewProject(fixture, 'hooks@example.org', 'Alerts');
      await web.submit('nav.tabs a[href$="/integrations/"]');
      await web.page.select('#channel-kind', 'webhook');
      await web.fill('#channel-name', 'local receiver');
      await web.fill('#channel-value', '{"url": "not a url"}');
      await web.submit('form.channel-form button[type=submit]');
      expect(await web.text('#value-error')).to.contain('must be a valid uri');
      await web.fill('#channel-value', `${receiver.url}/alert`);
      await web.page.select('#channel-notify', 'down');
      await web.submit('form.channel-form button[type=submit]');
      expect(await web.text('#integrations')).to.contain('local receiver').and.contain('webhook');
      await web.submit('#integrations form[action$="/test"] button');
      expect(await web.text('#test-result')).to.contain('Test: delivered');
      expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/alert']);
      await web.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integrations.png'), fullPage: true });
      expect(web.errors).to.deep.equal([]);
    } finally {
      await receiver.close();
    }
  });
});
