/**
 * The docs in a real browser (server/pages/docs/docs.ts): the check editor's grace time help opens the docs at that
 * section, and the docs pages and the editor pass axe-core at zero serious findings. Screenshots of the docs go to
 * TEST_OUTPUT_DIR (`.data/test-output/`; docs/screenshots/docs.png is one of them).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { seriousFindings } from '../../helpers/axe.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

describe('docs in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it("opens the docs at the grace time section from the editor's help link", async () => {
    const { web, base } = await signInToNewProject(fixture, 'docs@example.org', 'Docs');
    await web.goto(`${base}checks/new/`);
    expect(await seriousFindings(web.page), 'the check editor').to.deep.equal([]);
    const opened = fixture.browser.waitForTarget((target) => target.url().endsWith('/docs/checks#grace-time'));
    await web.page.click('a.help[href="/docs/checks#grace-time"]');
    const docs = (await (await opened).page()) as Page;
    await docs.waitForSelector('#grace-time');
    expect(await docs.$eval('#grace-time', (el) => [el.tagName, el.textContent])).to.deep.equal(['H2', 'Grace time']);
    expect(await docs.$eval('main', (el) => el.textContent)).to.contain('how long a late ping is waited');
    await docs.setViewport({ width: 1100, height: 900 });
    expect(await seriousFindings(docs), 'a docs page').to.deep.equal([]);
    await docs.evaluate(() => window.scrollTo(0, 0));
    await docs.screenshot({ path: join(TEST_OUTPUT_DIR, 'docs.png') });
    await docs.click('a[href="api#oncalendar-schedules"]');
    await docs.waitForFunction(() => location.pathname === '/docs/api' && location.hash === '#oncalendar-schedules');
    expect(await docs.$eval('#oncalendar-schedules', (el) => el.textContent)).to.equal('OnCalendar schedules');
    await docs.goto(`${fixture.origin}/docs/`);
    expect(await seriousFindings(docs), 'the docs list').to.deep.equal([]);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
