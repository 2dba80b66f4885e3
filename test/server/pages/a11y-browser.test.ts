/** An accessibility scan (axe-core, WCAG 2 A/AA) of the web app's pages in Chromium: every page at zero serious findings. */
import { expect } from 'chai';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';

describe('web app accessibility (axe-core, Chromium)', function () {
  this.timeout(240_000);
  const fx = useBrowser();

  it('the scan reports a serious finding when there is one (an image without text)', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    await tab.page.setContent('<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>');
    expect((await seriousFindings(tab.page)).join('\n')).to.match(/^image-alt \(critical\)/);
  });

  it('the signed-out pages have no serious findings', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    for (const path of ['/signin/', '/signup/', '/signin/reset/', '/docs/', '/docs/checks', '/wall/', '/docs/no-such-doc']) {
      await tab.goto(path);
      expect(await seriousFindings(tab.page), path).to.deep.equal([]);
    }
    expect(tab.errors).to.deep.equal([]);
  });

  it('a project’s and an account’s pages have no serious findings', async () => {
    const { web, base } = await signInToNewProject(fx, 'axe@example.org', 'Scanned');
    const paths = [
      '/projects/', base, `${base}checks/new/`, `${base}integrations/`, `${base}maintenance/`, `${base}maintenance/new/`,
      `${base}members/`, `${base}settings/`, `${base}badges/`, `${base}timeline/`, `${base}checks/00000000-0000-4000-8000-000000000000/`,
      '/account/', '/account/two-factor/totp', '/account/two-factor/webauthn', '/account/close',
    ];
    for (const path of paths) {
      await web.goto(path);
      expect(await seriousFindings(web.page), path).to.deep.equal([]);
    }
    expect(web.errors).to.deep.equal([]);
  });
});
