/**
 * The check editor's helpers in chromium at 1280×900 (server/pages/checks/editor-hints.ts, kit/static/app.js): the tag field
 * completes its last tag from the project's tags, the slug follows the name until it is edited, the keyword fields
 * appear when a keyword filter is ticked, the OnCalendar help link sits above its box as the cron one does, the
 * schedule is said in words; and a `<button>` and an `<a class="button">` side by side share their text's baseline.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { join } from 'node:path';
import { seriousFindings } from '../../helpers/axe.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

/** The bottom edge of the text inside `selector` (its first text node), CSS pixels from the page's top. */
function textBottom(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
    const range = document.createRange();
    range.selectNodeContents(walker.nextNode()!);
    return range.getBoundingClientRect().bottom;
  });
}

/** Whether the element at `selector` is rendered (not hidden, in a shown ancestor). */
function shown(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (el) => (el as HTMLElement).offsetParent !== null);
}

describe('check editor helpers in chromium', function () {
  this.timeout(180_000);
  const fixture = useBrowser();

  it('completes tags, fills the slug from the name, shows keyword fields on demand and says the schedule in words', async () => {
    const { web, base } = await signInToNewProject(fixture, 'helpers@example.org', 'Helpers', { width: 1280, height: 900 });
    const page = web.page;
    await web.goto(`${base}checks/new/`);
    await web.fill('#name', 'db backup');
    await web.fill('#tags', 'prod db');
    await web.submit('form.editor button[type=submit]');
    // The check page's quick edit: open it, rename the check, and land back on the page with the new name.
    await page.click('.quick-edit-box summary');
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'editor-quick-edit.png'), fullPage: true });
    await web.fill('#quick-name', 'db backup nightly');
    await web.submit('#quick-save');
    expect(await web.text('p.notice')).to.equal('Name and tags saved.');
    expect(await web.text('h1')).to.equal('db backup nightly');

    await web.goto(`${base}checks/new/`);
    const options = () => page.$$eval('#tag-options option', (os) => os.map((o) => o.value));
    expect(await options()).to.deep.equal(['db', 'prod']);
    await web.fill('#tags', 'prod d');
    await page.waitForFunction(() => [...document.querySelectorAll('#tag-options option')].map((o) => (o as HTMLOptionElement).value).join('|') === 'prod db');

    await web.fill('#name', 'Nightly Backup (prod)');
    expect(await page.$eval('#slug', (el) => (el as HTMLInputElement).value)).to.equal('nightly-backup-prod');
    await web.fill('#name', 'Crème brûlée -- ok');
    expect(await page.$eval('#slug', (el) => (el as HTMLInputElement).value)).to.equal('creme-brulee-ok');
    await web.fill('#slug', 'mine');
    await page.type('#name', ' again');
    expect(await page.$eval('#slug', (el) => (el as HTMLInputElement).value)).to.equal('mine');

    expect(await shown(page, '#success_kw')).to.equal(false);
    await page.click('input[name="filter_body"]');
    expect(await shown(page, '#success_kw')).to.equal(true);
    await page.click('input[name="filter_body"]');
    expect(await shown(page, '#success_kw')).to.equal(false);

    await page.click('input[name="kind"][value="oncalendar"]');
    await web.fill('#oncalendar', 'Mon..Fri *-*-* 09:30');
    await page.waitForFunction(() => document.querySelector('#preview-words')?.textContent?.startsWith('At 09:30 on Monday to Friday, next in '));
    const helpBottom = await page.$eval('a[href="/docs/api#oncalendar-schedules"]', (a) => a.getBoundingClientRect().bottom);
    const boxTop = await page.$eval('#oncalendar', (box) => box.getBoundingClientRect().top);
    expect(boxTop).to.be.at.least(helpBottom);
    expect(await shown(page, '#tz')).to.equal(true);
    expect(await page.$eval('#tz', (el) => el.getAttribute('list'))).to.equal('tz-options');
    expect(await page.$$eval('#tz-options option', (os) => os.length)).to.be.greaterThan(400);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'editor-helpers.png'), fullPage: true });
    expect(await seriousFindings(page), 'editor').to.deep.equal([]);
    expect(web.errors).to.deep.equal([]);
  });

  it('puts the text of a button and of a link styled as one on the same baseline', async () => {
    const { web, base } = await signInToNewProject(fixture, 'baseline@example.org', 'Baseline', { width: 1280, height: 900 });
    await web.goto(`${base}checks/new/`);
    const pair = ['form.editor .actions-row button[type=submit]', 'form.editor .actions-row a.button'];
    const [button, link] = await Promise.all(pair.map((s) => textBottom(web.page, s)));
    expect(Math.abs(button - link), `button text bottom ${button}, link text bottom ${link}`).to.be.below(0.5);
    // Without the rule (a link as a plain inline-block), the two labels sit apart: the rule is what lines them up.
    await web.page.$eval(pair[1], (a) => ((a as HTMLElement).style.display = 'inline-block'));
    const [before, linkBefore] = await Promise.all(pair.map((s) => textBottom(web.page, s)));
    expect(Math.abs(before - linkBefore)).to.be.at.least(0.5);
  });
});
