/**
 * Email reports and reminders in a real browser (docs/reports.md): chromium chooses a weekly report and hourly reminders on the account page and
 * sees them saved, then opens a mail's unsubscribe link and confirms with its button; both pages are scanned by axe-core. Screenshots of the
 * settings and of the unsubscribe page go to docs/screenshots/.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { config } from '../../../shared/config.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { unsubscribeToken } from '../../../shared/reports/links.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

/** docs/screenshots/ of the checkout: from dist/test/server/pages/ four levels up. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));

describe('email reports and reminders in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('saves the choice on the account page, and a mail link unsubscribes after its button', async () => {
    const { web } = await signInToNewProject(fixture, 'reports@example.org', 'Reports');
    const { page } = web;
    await web.goto('/account/');
    await page.select('#report-period', 'weekly');
    await page.select('#reminder-period', 'hourly');
    await web.submit('#reports-form button[type=submit]');
    expect(await web.text('.notice')).to.equal('Reports: weekly. Reminders: hourly.');
    expect(await page.$eval('#report-period', (el) => (el as HTMLSelectElement).value)).to.equal('weekly');
    expect(await web.text('#report-next')).to.match(/^Next report: \d{4}-\d\d-\d\d 00:00:00 UTC\.$/);
    expect(await seriousFindings(page), '/account/').to.deep.equal([]);
    await page.$eval('#reports', (el) => el.scrollIntoView());
    await page.screenshot({ path: `${SCREENSHOTS}account-reports.png` });

    const user = await User.findOne({ email: 'reports@example.org' }).lean<UserDoc>();
    await web.goto(`/account/reports/unsubscribe/${unsubscribeToken('report', user!._id, config.secretKey, new Date())}`);
    expect(await web.text('#link-text')).to.equal('Stop the email reports of your checks?');
    expect(await seriousFindings(page), 'unsubscribe page').to.deep.equal([]);
    await page.screenshot({ path: `${SCREENSHOTS}reports-unsubscribe.png` });
    await web.submit('form.link-confirm button[type=submit]');
    expect(await web.text('#link-text')).to.match(/^This address gets no more of the email reports/);
    expect(await seriousFindings(page), 'unsubscribed page').to.deep.equal([]);
    expect(await User.findById(user!._id).lean<UserDoc>()).to.include({ reportPeriod: 'off', reminderPeriod: 'hourly' });
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
