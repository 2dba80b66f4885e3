/**
 * The 404 page in a real browser (server/pages/kit/not-found.ts): an unknown address, outside the pages' paths and inside
 * a project's, shows a page in the app's layout with a link home, which passes axe-core at zero serious findings
 * (screenshot: docs/screenshots/not-found.png is a copy of TEST_OUTPUT_DIR's).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { seriousFindings } from '../../helpers/axe.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';

describe('404 page in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows an unknown address as a page with a link home (to sign in, for a visitor)', async () => {
    const web = await WebPage.open(fixture.browser, fixture.origin);
    const { page } = web;
    for (const path of ['/nope/', '/projects/00000000-0000-4000-8000-000000000000/nope']) {
      const res = await page.goto(`${fixture.origin}${path}`);
      expect(res?.status(), path).to.equal(404);
      expect(await web.text('h1'), path).to.equal('Not found');
      expect(await web.text('[data-status="404"]'), path).to.contain('There is no page at this address');
      expect(await seriousFindings(page), path).to.deep.equal([]);
    }
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'not-found.png') });
    await web.submit('main a[href="/"]');
    expect(web.path(), 'home, signed out').to.equal('/signin/');
    expect(web.errors, 'script errors on the page').to.deep.equal([]);
  });
});
