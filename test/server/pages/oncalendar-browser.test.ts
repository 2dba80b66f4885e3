/**
 * The check editor's third schedule kind in chromium: a person picks "OnCalendar", types a systemd timer's lines,
 * sees the API's message for a bad one and the next runs for a good one, creates the check and reads it back.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Check } from '../../../shared/models/check.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

describe('OnCalendar checks in the web editor (docs/api.md, "OnCalendar schedules")', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('creates an OnCalendar check with its live preview of the next runs', async () => {
    const { web, base } = await signInToNewProject(fixture, 'timers@example.org', 'Timers');
    await web.submit(`a[href="${base}checks/new/"]`);
    await web.fill('#name', 'weekday report');
    await web.page.click('input[name="kind"][value="oncalendar"]');
    expect(await web.page.$eval('#schedule', (el) => (el as HTMLElement).offsetParent === null)).to.equal(true);
    await web.fill('#oncalendar', 'Mon..Fri *-*-* 25:00');
    await web.page.waitForFunction(() => document.querySelector('#oncalendar-error')?.textContent === 'schedule is not a valid cron or OnCalendar expression');
    await web.fill('#oncalendar', 'Mon..Fri *-*-* 09:00\nSat 12:00');
    await web.fill('#tz', 'Europe/Riga');
    await web.page.waitForFunction(() => document.querySelectorAll('#preview li').length === 5 && document.querySelector('#oncalendar-error')?.textContent === '');
    const runs = await web.page.$$eval('#preview time', (times) => times.map((t) => t.textContent ?? ''));
    for (const text of runs) expect(text).to.match(/^(Mon|Tue|Wed|Thu|Fri) \d{4}-\d\d-\d\d 09:00 EES?T$|^Sat \d{4}-\d\d-\d\d 12:00 EES?T$/);
    await web.page.screenshot({ path: join(TEST_OUTPUT_DIR, 'webapp-oncalendar-editor.png'), fullPage: true });
    await web.submit('form.editor button[type=submit]');
    const checkId = web.path().split('/').at(-2) ?? '';
    expect(await web.text('.facts dd')).to.match(/^OnCalendar Mon\.\.Fri \*-\*-\* 09:00\s+Sat 12:00 in Europe\/Riga, grace \d+ \w+( \d+ \w+)?$/);
    const stored = await Check.findById(checkId).lean();
    expect([stored?.kind, stored?.schedule, stored?.tz]).to.deep.equal(['oncalendar', 'Mon..Fri *-*-* 09:00\nSat 12:00', 'Europe/Riga']);
    await web.goto(`${base}checks/${checkId}/edit/`);
    expect(await web.page.$eval('input[name="kind"][value="oncalendar"]', (el) => el.checked)).to.equal(true);
    expect(await web.page.$eval('#oncalendar', (el) => (el as HTMLTextAreaElement).value)).to.equal('Mon..Fri *-*-* 09:00\nSat 12:00');
    await web.page.waitForFunction(() => document.querySelectorAll('#preview li').length === 5);
    expect(web.errors).to.deep.equal([]);
  });
});
