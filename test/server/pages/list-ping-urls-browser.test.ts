/**
 * The checks list's ping URLs in a real browser (server/pages/checks/list/ping-urls.ts, static/list.js): a read-write member sees
 * one URL per row, by UUID, and the header's uuid/slug switch shows them by slug (`<BASE_URL>/ping/<ping key>/<slug>`)
 * where the check has one, remembered in localStorage; Copy copies the URL shown; axe-core finds nothing serious.
 */
import { expect } from 'chai';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { buildUser, join, PASSWORD } from '../../helpers/web.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';

describe('checks list ping URLs in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows one ping URL per row, switches between uuid and slug in place, and copies the one shown', async () => {
    const built = await buildProject({ name: 'Backups' });
    const check = await buildCheck(built, { name: 'nightly backup', slug: 'nightly-backup' });
    const other = await buildCheck(built, { name: 'invoices' });
    await join(built.project._id, await buildUser('writer@example.org'), 'rw');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    const { page } = web;
    await page.browserContext().overridePermissions(fixture.origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await web.goto('/signin/');
    await web.signIn('writer@example.org', PASSWORD);
    await web.goto(`/projects/${built.project._id}/`);

    const row = `tr[data-check="${check._id}"]`;
    const shown = (sel: string): Promise<string> => page.$eval(sel, (el) => el.textContent ?? '');
    expect(await shown(`${row} code.ping-url`)).to.match(new RegExp(`/ping/${check._id}$`));
    expect(await page.$$eval(`${row} code.ping-url`, (codes) => codes.length), 'one ping URL per row').to.equal(1);

    // Copy copies the URL shown; the header's switch shows the URLs by slug in place (a check without a slug keeps its uuid's), remembered.
    await page.bringToFront();
    await page.click(`${row} button[data-copy]`);
    await page.waitForFunction(async (id) => (await navigator.clipboard.readText()).endsWith(`/ping/${id}`), { polling: 100 }, check._id);
    await page.click('.url-switch a[data-urls="slug"]');
    const bySlug = `/ping/${built.pingKey}/nightly-backup`;
    expect(await shown(`${row} code.ping-url`)).to.match(new RegExp(`${bySlug}$`));
    expect(await shown(`${row} code.ping-url b`)).to.equal('nightly-backup');
    expect(await shown(`tr[data-check="${other._id}"] code.ping-url b`)).to.equal(other._id);
    await page.click(`${row} button[data-copy]`);
    await page.waitForFunction(async (url) => (await navigator.clipboard.readText()).endsWith(url), { polling: 100 }, bySlug);
    await web.goto(`/projects/${built.project._id}/`);
    expect(await shown(`${row} code.ping-url`), 'the switch is remembered').to.match(new RegExp(`${bySlug}$`));
    expect(await seriousFindings(page), 'the list with ping URLs by slug').to.deep.equal([]);
    expect(web.errors, 'script errors on the page').to.deep.equal([]);
  });
});
