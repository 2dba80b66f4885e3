/**
 * The web app in a real browser, served in this process: the phone-sized screen, and a webhook integration added
 * through its kind's fields (after a refused URL) and tested against a local receiver. The whole walk from `npm start` (first user, project,
 * keys, members, a cron check pinged by curl) is start-browser.test.ts.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { startReceiver } from '../../helpers/receiver.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';

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
      expect(await web.text('#integrations')).to.contain('local receiver').and.contain('webhook');
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
});
