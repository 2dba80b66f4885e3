/**
 * Alerting rules in a real browser (issue 22, browser part): chromium sets a check's fail threshold in the editor and sees
 * it saved on the check page, then creates a maintenance window covering that check and sees it listed as active.
 * Screenshots of the rules in the editor and of the maintenance list go to TEST_OUTPUT_DIR (`.data/test-output/`).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { Maintenance } from '../../../shared/models/maintenance.js';
import { buildCheck } from '../../helpers/factories.js';
import { launchBrowser, serveApp, TEST_OUTPUT_DIR, type Served } from '../../helpers/browser.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

describe('alerting rules in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let served: Served;

  before(async () => {
    browser = await launchBrowser();
    served = await serveApp();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
  });

  async function fill(page: Page, selector: string, text: string): Promise<void> {
    await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(selector, text);
  }

  async function submit(page: Page, selector: string): Promise<void> {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  }

  it('saves a fail threshold from the editor and lists a new maintenance window as active', async () => {
    const errors: string[] = [];
    const { password } = jsonOf(await runCli(['user', 'create', '--email', 'rules@example.org'])) as { password: string };
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1100, height: 900 });
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(`${served.origin}/signin/`);
    await fill(page, '#email', 'rules@example.org');
    await fill(page, '#password', password);
    await submit(page, 'form.sign-in button[type=submit]');
    await page.type('#project-name', 'Rules');
    await submit(page, 'form[action="/projects/"] button');
    const project = await Project.findOne({ name: 'Rules' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'nightly backup', tags: 'db' });
    const base = `/projects/${project?._id}/`;

    // The fail threshold: a bad one refused beside the field, a good one saved and shown.
    await page.goto(`${served.origin}${base}checks/${check._id}/edit/`);
    await fill(page, '#fail_threshold', '0');
    await submit(page, 'form.editor button[type=submit]');
    expect(await page.$eval('#fail_threshold-error', (el) => el.textContent)).to.equal('fail_threshold is too small');
    await fill(page, '#fail_threshold', '3');
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'rules-check-editor.png'), fullPage: true });
    await submit(page, 'form.editor button[type=submit]');
    expect(await page.$eval('#rule-fail_threshold', (el) => el.textContent)).to.equal('3 failures in a row');
    expect(await Check.findById(check._id).lean()).to.include({ failThreshold: 3 });

    // A maintenance window from an hour ago to an hour ahead, covering the check: listed as active.
    await page.goto(`${served.origin}${base}`);
    await submit(page, `nav.tabs a[href="${base}maintenance/"]`);
    await submit(page, `a[href="${base}maintenance/new/"]`);
    const hour = 3600_000;
    await fill(page, '#name', 'database upgrade');
    await fill(page, '#start', new Date(Date.now() - hour).toISOString().slice(0, 16));
    await fill(page, '#end', new Date(Date.now() + hour).toISOString().slice(0, 16));
    await page.click('input[name="covers"][value="checks"]');
    await page.click(`input[name="check"][value="${check._id}"]`);
    await submit(page, 'form.editor button[type=submit]');
    expect(new URL(page.url()).pathname).to.equal(`${base}maintenance/`);
    const window = await Maintenance.findOne({ projectId: project?._id }).lean();
    expect(window?.checkIds).to.deep.equal([check._id]);
    const row = `tr[data-window="${window?._id}"]`;
    expect(await page.$eval(row, (el) => el.getAttribute('data-active'))).to.equal('yes');
    expect(await page.$eval(`${row} [data-field="active"]`, (el) => el.textContent)).to.match(/^yes, until \d{4}-\d\d-\d\d \d\d:\d\d:00 UTC$/);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'rules-maintenance.png'), fullPage: true });
    expect(errors, 'script errors on the pages').to.deep.equal([]);
  });
});
