import { expect } from 'chai';
import { seriousFindings } from '../../helpers/axe.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';

describe('web app accessibility (axe-core, Chromium)', function () {
  this.timeout(120_000);
  const fx = useBrowser();

  it('the scan reports a serious finding when there is one (an image without text)', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    await tab.page.setContent('<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>');
    expect((await seriousFindings(tab.page)).join('\n')).to.match(/^image-alt \(critical\)/);
  });

  it('the sign-in and sign-up pages have no serious findings', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    for (const path of ['/signin/', '/signup/']) {
      await tab.goto(path);
      expect(await seriousFindings(tab.page), path).to.deep.equal([]);
    }
    expect(tab.errors).to.deep.equal([]);
  });
});
