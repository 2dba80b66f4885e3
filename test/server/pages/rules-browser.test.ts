/**
 * Alerting rules in a real browser (docs/alerting-rules.md, "In the browser"): chromium sets a check's fail threshold in the editor and sees
 * it saved on the check page, then creates a maintenance window covering that check and sees it listed as active.
 * Screenshots of the rules in the editor and of the maintenance list go to TEST_OUTPUT_DIR (`.data/test-output/`).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { Maintenance } from '../../../shared/models/maintenance.js';
import { buildCheck } from '../../helpers/factories.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

describe('alerting rules in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('saves a fail threshold from the editor and lists a new maintenance window as active', async () => {
    const { web, base } = await signInToNewProject(fixture, 'rules@example.org', 'Rules');
    const { page } = web;
    const project = await Project.findOne({ name: 'Rules' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'nightly backup', tags: 'db' });

    // The fail threshold: a bad one refused beside the field, a good one saved and shown.
    await web.goto(`${base}checks/${check._id}/edit/`);
    await web.fill('#fail_threshold', '0');
    await web.submit('form.editor button[type=submit]');
    expect(await page.$eval('#fail_threshold-error', (el) => el.textContent)).to.equal('fail_threshold is too small');
    await web.fill('#fail_threshold', '3');
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'rules-check-editor.png'), fullPage: true });
    await web.submit('form.editor button[type=submit]');
    expect(await page.$eval('#rule-fail_threshold', (el) => el.textContent)).to.equal('3 failures in a row');
    expect(await Check.findById(check._id).lean()).to.include({ failThreshold: 3 });

    // A maintenance window from an hour ago to an hour ahead, covering the check: listed as active.
    await web.goto(`${base}`);
    await web.submit(`nav.tabs a[href="${base}maintenance/"]`);
    await web.submit(`a[href="${base}maintenance/new/"]`);
    const hour = 3600_000;
    await web.fill('#name', 'database upgrade');
    await web.fill('#start', new Date(Date.now() - hour).toISOString().slice(0, 16));
    await web.fill('#end', new Date(Date.now() + hour).toISOString().slice(0, 16));
    await page.click('input[name="covers"][value="checks"]');
    await page.click(`input[name="check"][value="${check._id}"]`);
    await web.submit('form.editor button[type=submit]');
    expect(new URL(page.url()).pathname).to.equal(`${base}maintenance/`);
    const window = await Maintenance.findOne({ projectId: project?._id }).lean();
    expect(window?.checkIds).to.deep.equal([check._id]);
    const row = `tr[data-window="${window?._id}"]`;
    expect(await page.$eval(row, (el) => el.getAttribute('data-active'))).to.equal('yes');
    expect(await page.$eval(`${row} [data-field="active"]`, (el) => el.textContent)).to.match(/^yes, until \d{4}-\d\d-\d\d \d\d:\d\d:00 UTC$/);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'rules-maintenance.png'), fullPage: true });
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
