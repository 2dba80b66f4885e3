/**
 * The web app in a real browser, served in this process: the phone-sized screen, and a webhook integration added
 * (after a refused setting) and tested against a local receiver. The whole walk from `npm start` (first user, project,
 * keys, members, a cron check pinged by curl) is start-browser.test.ts.
 */
import { join } from 'node:path';
import { expect } from 'chai';
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
