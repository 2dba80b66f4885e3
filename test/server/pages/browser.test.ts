/**
 * The web app in a real browser, served in this process: the phone-sized screen; a webhook integration added
 * through its kind's fields (after a refused URL) and tested against a local receiver; and that integration audited
 * (docs/web-app.md, "Integrations"): assigned to one check in its editor, a real `/fail` ping's alert delivered by real alert workers
 * and shown in the check's notification log; then, the receiver answering 500, a missed deadline's alert failing after
 * its retries, shown with the receiver's answer in the log and on the integrations list. The whole walk from `npm start` (first user, project, keys, members, a cron check
 * pinged by curl) is start-browser.test.ts.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { jsonBody, startReceiver, type Reply } from '../../helpers/receiver.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { startAlertWorkers, testNotifyConfig } from '../../helpers/alerts.js';
import { buildCheck } from '../../helpers/factories.js';
import { waitFor } from '../../helpers/poll.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';

/** Longest wait for an alert to reach the page the test reloads, milliseconds. */
const ALERT_SHOWN_MS = 20_000;

/** The cells of the newest row of the check page's notification log (time, integration, status, outcome, error, reason). */
const newestLogged = (web: WebPage) => web.page.$$eval('#notifications tbody tr:first-child td', (cells) => cells.map((td) => td.textContent?.trim() ?? ''));

/**
 * Reloads the page shown until `probe` finds what it waits for (as a person presses reload).
 *
 * @returns The first value `probe` gives other than undefined, null or false.
 * @throws Error naming `what` after {@link ALERT_SHOWN_MS} milliseconds.
 */
function reloadUntil<T>(web: WebPage, what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  return waitFor(what, async () => {
    await web.page.reload();
    return probe();
  }, ALERT_SHOWN_MS);
}

describe('web app in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

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
      const page = web.page;
      await web.submit('nav.tabs a[href$="/integrations/"]');
      // The script shows the chosen kind's fields at once (its Choose button is for pages without it).
      const shown = () => page.$$eval('fieldset.kind-fields', (sets) => sets.filter((set) => !set.hidden).map((set) => set.dataset.kind));
      expect(await page.$eval('form.channel-form .choose-kind', (el) => (el as HTMLElement).hidden)).to.equal(true);
      await page.select('#channel-kind', 'telegram');
      expect(await shown()).to.deep.equal(['telegram']);
      expect(await page.$eval('#telegram-chat_id', (el) => el.getAttribute('aria-describedby'))).to.equal('telegram-chat_id-hint');
      await page.select('#channel-kind', 'webhook');
      expect(await shown()).to.deep.equal(['webhook']);
      await web.fill('#channel-name', 'local receiver');
      await web.fill('#webhook-url', 'not a url');
      await web.submit('form.channel-form button.primary');
      expect(await web.text('#url-error')).to.contain('"url" must be a valid uri');
      expect(await page.$eval('#webhook-url', (el) => [el.getAttribute('aria-invalid'), el.getAttribute('aria-describedby'), el === document.activeElement])).to.deep.equal(['true', 'webhook-url-hint url-error', true]);
      expect(await Channel.countDocuments({ name: 'local receiver' })).to.equal(0);
      await web.fill('#webhook-url', `${receiver.url}/alert`);
      await page.select('#channel-notify', 'down');
      await web.submit('form.channel-form button.primary');
      expect(await web.text('#integrations')).to.contain('local receiver').and.contain('Webhook');
      await web.submit('#integrations form[action$="/test"] button');
      expect(await web.text('#test-result')).to.contain('Test: delivered');
      expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/alert']);
      await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integrations.png'), fullPage: true });
      // On a phone, the form (and the list) fits without sideways scrolling.
      await page.setViewport({ width: 375, height: 740 });
      await page.select('#channel-kind', 'webhook');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.equal(0);
      // Editing never shows the stored URL back; its field says that empty keeps it.
      await web.submit('#integrations a.button[href$="/edit/"]');
      expect(await page.$eval('#webhook-url', (el) => (el as HTMLInputElement).value)).to.equal('');
      expect(await web.text('#webhook-url-hint')).to.contain('A value is stored: leave this empty to keep it.');
      await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integration-edit-phone.png'), fullPage: true });
      expect(web.errors).to.deep.equal([]);
    } finally {
      await receiver.close();
    }
  });

  it("logs a check's delivered alert on its page, then a failed one with the receiver's answer, also on the integrations list", async () => {
    let answer: Reply = { status: 200 };
    const receiver = await startReceiver(() => answer);
    const notify = testNotifyConfig(receiver.url);
    const workers = startAlertWorkers(notify, deadlineWorker);
    try {
      const { web, base } = await signInToNewProject(fixture, 'audit@example.org', 'Audited');
      const { page } = web;
      const project = await Project.findOne({ name: 'Audited' }).lean<ProjectDoc>();
      const keys = { project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' };
      // A check due every second (the test run's minimum), so a missed ping soon takes it down at its deadline.
      const backup = await buildCheck(keys, { name: 'nightly backup', timeout: 1, grace: 1 });
      const other = await buildCheck(keys, { name: 'hourly sync' });

      // The webhook, alerting on down only, not assigned to all existing checks, then to one of the two in that check's editor.
      await web.goto(`${base}integrations/`);
      await page.select('#channel-kind', 'webhook');
      await web.fill('#channel-name', 'ops hook');
      await web.fill('#webhook-url', `${receiver.url}/hook`);
      await page.select('#channel-notify', 'down');
      await page.click('#assign-all');
      await web.submit('form.channel-form button.primary');
      const channel = await Channel.findOne({ projectId: project?._id, name: 'ops hook' }).lean();
      await web.goto(`${base}checks/${backup._id}/edit/`);
      await page.click(`input[name="channel"][value="${channel?._id}"]`);
      await web.submit('form.editor button[type=submit]');
      expect(await web.text('#check-channels')).to.equal('ops hook');

      // A real /fail ping (new → down): the notify worker delivers the alert, and the check's log shows it.
      const ping = async (path: string) => expect((await fetch(`${fixture.origin}/ping/${backup._id}${path}`)).status).to.equal(200);
      await ping('/fail');
      const delivered = await reloadUntil(web, 'the delivered alert on the check page', async () => {
        const cells = (await page.$('#notifications')) ? await newestLogged(web) : [];
        return cells[3] === 'delivered' && cells;
      });
      expect(delivered[0]).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      expect(delivered.slice(1)).to.deep.equal(['ops hook', 'down', 'delivered', '—', '—']);
      expect(receiver.requests.map((r) => [r.url, jsonBody(r).status, jsonBody(r).name])).to.deep.equal([['/hook', 'down', 'nightly backup']]);

      // The receiver breaks. A success ping brings the check back up (no alert: down only); then no more pings, so the
      // deadline worker takes it down at its deadline and alerts: every attempt gets the 500 until none is left.
      answer = { status: 500, body: 'upstream exploded' };
      await ping('');
      const failed = await reloadUntil(web, 'the failed alert on the check page', async () => {
        const cells = await newestLogged(web);
        return cells[3].startsWith('failed') && cells;
      });
      expect(failed.slice(1)).to.deep.equal(['ops hook', 'down', 'failed, retried 2 times', 'received status code 500: upstream exploded', '—']);
      expect(await page.$$eval('#notifications tbody tr', (rows) => rows.length)).to.equal(2);
      expect(receiver.requests).to.have.length(1 + notify.attempts);
      const log = await page.evaluate(() => {
        const table = document.querySelector('#notifications');
        const heading = table?.previousElementSibling;
        const [top, bottom] = [heading?.getBoundingClientRect().top ?? 0, table?.getBoundingClientRect().bottom ?? 0];
        return { x: 0, y: top + window.scrollY - 8, width: document.documentElement.clientWidth, height: bottom - top + 24 };
      });
      await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'notification-log.png'), clip: log });

      // The integrations list shows the same failure as the channel's last delivery; the other check alerted nobody.
      await web.goto(`${base}integrations/`);
      const row = `tr[data-channel="${channel?._id}"]`;
      expect(await web.text(`${row} .channel-checks`)).to.equal('1');
      expect((await web.text(`${row} .last-delivery`)).replace(/\s+/g, ' ').trim())
        .to.match(/^(just now|\d+ \w+ ago): failed, retried 2 times received status code 500: upstream exploded$/);
      expect(await web.text(`${row} .delivery-badge`)).to.equal('last delivery failed');
      expect(await web.text('#integrations-tab')).to.contain('(a delivery failed)');
      await web.goto(`${base}checks/${other._id}/`);
      expect([await web.text('#check-channels'), await web.text('#no-notifications')]).to.deep.equal(['none', 'No alerts sent yet.']);
      expect(web.errors).to.deep.equal([]);
    } finally {
      await workers.stop(true);
      await receiver.close();
    }
  });
});
