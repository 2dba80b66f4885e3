/**
 * The wall display in a real browser (server/pages/wall/wall.ts): a read-only key pasted into `/wall/` shows the project's
 * checks list, which a ping turns up live, and a check page, both without controls, ping URLs or check UUIDs (checks are
 * named by `unique_key`); every page passes
 * axe-core at zero serious findings. Screenshots go to TEST_OUTPUT_DIR (`.data/test-output/`; docs/screenshots/wall.png
 * and wall-key.png are copies).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';

describe('wall display in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows the checks list, live, and a check page read-only after a read-only key is pasted', async () => {
    const built = await buildProject({ name: 'Lobby' });
    const backup = await buildCheck(built, { name: 'nightly backup', tags: 'db' });
    await buildCheck(built, { name: 'invoices', tags: 'billing' });
    const web = await WebPage.open(fixture.browser, fixture.origin);
    const { page } = web;

    await web.goto('/wall/');
    await web.fill('#key', built.apiKey);
    await web.submit('form.wall button[type=submit]');
    expect(await web.text('#key-error')).to.contain('This is a read-write key');
    expect(await seriousFindings(page), 'the wall form with its message').to.deep.equal([]);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'wall-key.png') });

    await web.fill('#key', built.apiKeyReadonly);
    await web.submit('form.wall button[type=submit]');
    const base = `/projects/${built.project._id}/`;
    expect(web.path()).to.equal(base);
    expect(await web.text('nav.tabs .role')).to.equal('Wall display: read-only');
    expect(await page.$$eval('#checks tbody tr', (rows) => rows.length)).to.equal(2);
    expect(await page.$$(`a[href$="/edit/"], a[href$="/new/"], form[action*="/checks/"], a[href*="/settings/"]`)).to.have.length(0);
    expect(await seriousFindings(page), 'the wall list').to.deep.equal([]);

    // A ping turns the check up on the open page (the list's live update).
    const key = uniqueKeyOf(backup._id);
    const row = `tr[data-check="${key}"]`;
    expect(await page.$eval(`${row} [data-field="status"]`, (el) => el.textContent)).to.equal('new');
    expect((await fetch(`${fixture.origin}/ping/${backup._id}`)).status).to.equal(200);
    await page.waitForFunction((selector) => document.querySelector(selector)?.textContent === 'up', {}, `${row} [data-field="status"]`);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'wall.png') });
    expect(await page.content(), 'the live list').not.to.contain(backup._id);

    await web.submit(`${row} a`);
    expect(web.path()).to.equal(`${base}checks/${key}/`);
    expect(await page.content(), 'the check page').not.to.contain(backup._id);
    expect(await web.text('h1')).to.contain('nightly backup');
    const text = await page.$eval('main', (el) => el.textContent ?? '');
    expect(text).not.to.contain('/ping/').and.not.to.contain(built.pingKey);
    expect(await page.$$('main form, main a[href$="/edit/"], main a[href$="/delete/"]')).to.have.length(0);
    expect(await seriousFindings(page), 'a check page on the wall').to.deep.equal([]);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
