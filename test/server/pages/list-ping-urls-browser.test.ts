/**
 * The checks list's ping URLs in a real browser (server/pages/checks/list/ping-urls.ts, views/ping-url-slug.eta): a read-write
 * member sees a check's URL by UUID and, when it has a slug, by slug (`<BASE_URL>/ping/<ping key>/<slug>`), each with
 * its own Copy button that copies that URL; the list passes axe-core at zero serious findings.
 */
import { expect } from 'chai';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { buildUser, join, PASSWORD } from '../../helpers/web.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';

describe('checks list ping URLs in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows and copies the ping URL by slug beside the UUID one', async () => {
    const built = await buildProject({ name: 'Backups' });
    const check = await buildCheck(built, { name: 'nightly backup', slug: 'nightly-backup' });
    await buildCheck(built, { name: 'invoices' });
    await join(built.project._id, await buildUser('writer@example.org'), 'rw');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    const { page } = web;
    await page.browserContext().overridePermissions(fixture.origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await web.goto('/signin/');
    await web.signIn('writer@example.org', PASSWORD);
    await web.goto(`/projects/${built.project._id}/`);

    const row = `tr[data-check="${check._id}"]`;
    const urls = await page.$$eval(`${row} input.ping-url`, (inputs) => inputs.map((input) => input.value));
    expect(urls).to.have.length(2);
    expect(urls[0]).to.match(new RegExp(`/ping/${check._id}$`));
    expect(urls[1]).to.match(new RegExp(`/ping/${built.pingKey}/nightly-backup$`));
    expect(await page.$$eval('#checks input.ping-url-slug', (inputs) => inputs.length), 'only the check with a slug').to.equal(1);

    await page.bringToFront();
    await page.click(`${row} .ping-url-row:nth-of-type(2) button[data-copy]`);
    await page.waitForFunction(async (url) => (await navigator.clipboard.readText()) === url, { polling: 100 }, urls[1]);
    await page.click(`${row} .ping-url-row:nth-of-type(1) button[data-copy]`);
    await page.waitForFunction(async (url) => (await navigator.clipboard.readText()) === url, { polling: 100 }, urls[0]);
    expect(await seriousFindings(page), 'the list with both ping URLs').to.deep.equal([]);
    expect(web.errors, 'script errors on the page').to.deep.equal([]);
  });
});
