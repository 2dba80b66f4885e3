/**
 * Times where the user lives, light or dark, in a real browser: the theme switcher recolours the page at once and the choice survives a reload;
 * several pages scanned by axe (colour contrast included) in light, dark and the system's dark; the zone switcher changes the times shown; the
 * account page proposes the browser's zone. Screenshots to docs/screenshots/check-page-dark.png and docs/screenshots/account.png.
 */
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { User } from '../../../shared/models/user.js';
import { buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { waitFor } from '../../helpers/poll.js';
import { signInToNewProject, useBrowser, type WebPage } from '../../helpers/pages.js';

/** The page's background colour as computed. */
function background(web: WebPage): Promise<string> {
  return web.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

describe('time zone and theme in a browser', function () {
  this.timeout(180_000);
  const fixture = useBrowser();

  it('switches the theme at once, keeps it across a reload, and passes axe in light, dark and the system dark', async () => {
    const { web, base } = await signInToNewProject(fixture, 'theme@example.org', 'Themes');
    const { page } = web;
    const project = await Project.findOne({ name: 'Themes' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'db', status: 'down', lastPing: new Date(), nPings: 3 });
    // Every status badge on the list: down, up, grace, paused, new (and a running one).
    const fields = { project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' };
    const hourAgo = new Date(Date.now() - 3600_000);
    await buildCheck(fields, { name: 'web', status: 'up', lastPing: new Date(), nPings: 1 });
    await buildCheck(fields, { name: 'late', status: 'up', timeout: 3000, grace: 3600, lastPing: hourAgo, nPings: 1 });
    await buildCheck(fields, { name: 'running', status: 'up', lastPing: new Date(), lastStart: new Date(), nPings: 2 });
    await buildCheck(fields, { name: 'held', status: 'paused', nPings: 1 });
    await buildCheck(fields, { name: 'fresh' });
    const one = `${base}checks/${check._id}/`;
    // An error page (.error) and a page with a notice (.notice) too.
    const pages = ['/projects/', base, one, `${one}edit/`, '/account/', `${base}integrations/`, `${base}checks/00000000-0000-4000-8000-000000000000/`];

    await web.goto(one);
    expect(await background(web)).to.equal('rgb(255, 255, 255)');
    await page.select('#theme-select', 'dark');
    expect(await background(web)).to.equal('rgb(13, 17, 23)');
    await waitFor('the saved theme', async () => (await User.findOne({ email: 'theme@example.org' }).lean())?.theme === 'dark');
    await page.reload();
    expect(await background(web)).to.equal('rgb(13, 17, 23)');
    await page.screenshot({ path: 'docs/screenshots/check-page-dark.png' });

    for (const path of pages) {
      await web.goto(path);
      expect(await seriousFindings(page), `dark ${path}`).to.deep.equal([]);
    }
    await web.goto(base);
    expect(await page.$$eval('.status', (els) => [...new Set(els.map((el) => el.textContent?.trim()))].sort())).to.include.members(['down', 'grace', 'new', 'paused', 'up']);
    await web.goto(one);
    await web.submit('#ping-now');
    expect(await seriousFindings(page), 'dark notice').to.deep.equal([]);
    await page.select('#theme-select', 'light');
    await waitFor('the saved theme', async () => (await User.findOne({ email: 'theme@example.org' }).lean())?.theme === 'light');
    for (const path of pages) {
      await web.goto(path);
      expect(await seriousFindings(page), `light ${path}`).to.deep.equal([]);
    }
    await page.select('#theme-select', 'system');
    await waitFor('the saved theme', async () => (await User.findOne({ email: 'theme@example.org' }).lean())?.theme === 'system');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await web.goto(one);
    expect(await background(web)).to.equal('rgb(13, 17, 23)');
    for (const path of pages) {
      await web.goto(path);
      expect(await seriousFindings(page), `system dark ${path}`).to.deep.equal([]);
    }
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await web.goto(one);
    expect(await background(web)).to.equal('rgb(255, 255, 255)');
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });

  it('proposes the browser\'s zone, saves it, and switches a page\'s times between zones', async () => {
    const { web, base } = await signInToNewProject(fixture, 'zone@example.org', 'Zones');
    const { page } = web;
    await page.emulateTimezone('Europe/Riga');
    const project = await Project.findOne({ name: 'Zones' }).lean<ProjectDoc>();
    const lastPing = new Date('2026-07-01T12:00:00Z');
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'tokyo job', kind: 'cron', schedule: '0 3 * * *', tz: 'Asia/Tokyo', status: 'up', lastPing, nPings: 1 });
    const one = `${base}checks/${check._id}/`;

    await web.goto('/account/');
    expect(await web.text('#use-browser-tz')).to.equal("Use my browser's zone: Europe/Riga");
    await page.click('#use-browser-tz');
    expect(await page.$eval('#profile-tz', (el) => (el as HTMLSelectElement).value)).to.equal('Europe/Riga');
    await page.screenshot({ path: 'docs/screenshots/account.png' });
    expect(await seriousFindings(page), 'account page').to.deep.equal([]);
    await web.submit('#save-tz');
    expect(await User.findOne({ email: 'zone@example.org' }).lean()).to.include({ tz: 'Europe/Riga' });
    expect(await page.$eval('#use-browser-tz', (el) => (el as HTMLButtonElement).hidden)).to.equal(true);

    await web.goto(one);
    expect(await web.text('#last-ping')).to.equal('2026-07-01 15:00:00 EEST');
    await web.submit('#zone-check');
    expect(await web.text('#last-ping')).to.equal('2026-07-01 21:00:00 JST');
    expect(await page.$eval('#zone-check', (el) => el.getAttribute('aria-current'))).to.equal('true');
    await web.submit('#zone-utc');
    expect(await web.text('#last-ping')).to.equal('2026-07-01 12:00:00 UTC');
    expect(await web.text('#shown-zone')).to.equal('UTC');
    expect(await seriousFindings(page), 'check page with a zone chosen').to.deep.equal([]);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
