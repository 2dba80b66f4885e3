/**
 * The check in pictures and the badges page in a real browser (docs/web-app.md, "A check's page", "Badges"): a real
 * /start then success ping shows in the duration chart and its table, and on the project timeline; the badges page's
 * preview loads and its GET form changes the URL without JavaScript; axe finds nothing serious on the three pages.
 * Screenshots go to docs/screenshots/ (check-charts.png, timeline.png, badges.png).
 */
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Ping } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { waitFor } from '../../helpers/poll.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

const MINUTE = 60_000;
const SHOTS = new URL('../../../../docs/screenshots/', import.meta.url).pathname;

/** A check with a day of seeded history: a run every 2 hours (20 to 26 minutes, one failed) and an hour down. */
async function seeded(project: ProjectDoc): Promise<CheckDoc> {
  const keys = { project, apiKey: '', apiKeyReadonly: '', pingKey: '' };
  const check = await buildCheck(keys, { name: 'nightly <report>', status: 'up', nPings: 24, tags: 'reports' });
  const now = Date.now();
  const pings = Array.from({ length: 12 }, (_, i) => {
    const start = now - (23 - 2 * i) * 60 * MINUTE;
    const end = start + (20 + (i % 4) * 2) * MINUTE;
    return [{ n: 2 * i + 1, kind: 'start', created: new Date(start) }, { n: 2 * i + 2, kind: i === 7 ? 'fail' : 'success', created: new Date(end) }];
  });
  await Ping.insertMany(pings.flat().map((p) => ({ ...p, checkId: check._id })));
  const flip = (minutes: number, oldStatus: string, newStatus: string) => ({ checkId: check._id, created: new Date(now - minutes * MINUTE), recorded: new Date(), oldStatus, newStatus });
  await Flip.insertMany([flip(26 * 60, 'new', 'up'), flip(8 * 60, 'up', 'down'), flip(7 * 60, 'down', 'up')]);
  return check;
}

describe('the check in pictures and the badges page in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows a real run in the duration chart and on the timeline, with accessible pages', async () => {
    const { web, base } = await signInToNewProject(fixture, 'charts@example.org', 'Charts');
    const { page } = web;
    const project = await Project.findOne({ name: 'Charts' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'deploy' });
    const history = await seeded(project!);

    // A real run: /start, then success.
    const ping = async (path: string) => expect((await fetch(`${fixture.origin}/ping/${check._id}${path}`)).status).to.equal(200);
    await ping('/start');
    await waitFor('the start ping stored', async () => (await Check.findById(check._id).lean())?.lastStart);
    await ping('');
    await waitFor('the success ping stored', () => Ping.exists({ checkId: check._id, kind: 'success' }), 10_000);

    await web.goto(`${base}checks/${check._id}/`);
    expect(await web.text('#duration-stats')).to.match(/^Last 1 run: min [\d.]+ s, median [\d.]+ s, p95 [\d.]+ s, max [\d.]+ s\./);
    expect(await page.$$eval('#duration-chart svg rect.run-success', (bars) => bars.length)).to.equal(1);
    expect(await page.$$eval('#runs-table tbody tr td:nth-child(3)', (cells) => cells.map((c) => c.textContent))).to.deep.equal(['success']);
    expect(await page.$eval('#uptime tbody tr td:nth-child(2)', (cell) => cell.textContent)).to.equal('100.00%');
    expect(await seriousFindings(page), 'check page').to.deep.equal([]);

    // The timeline, reached from the checks list: the run is a bar on the check's row and counted in the table.
    await web.goto(base);
    await web.submit('#timeline-link');
    expect(web.path()).to.equal(`${base}timeline/`);
    expect(await page.$$eval(`g[data-check="${check._id}"] rect.run-success`, (bars) => bars.length)).to.equal(1);
    expect(await web.text(`#timeline-table tr[data-check="${check._id}"] [data-field="runs"]`)).to.equal('1 (0 failed)');
    expect(await web.text(`#timeline-table tr[data-check="${history._id}"] [data-field="runs"]`)).to.equal('12 (1 failed)');
    expect(await seriousFindings(page), 'timeline').to.deep.equal([]);
    await page.screenshot({ path: `${SHOTS}timeline.png` });

    await web.goto(`${base}checks/${history._id}/`);
    await page.$eval('#charts', (el) => el.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}check-charts.png` });
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });

  it('generates badge URLs with a GET form, without JavaScript too, and previews the badge', async () => {
    const { web, base } = await signInToNewProject(fixture, 'badges@example.org', 'Badges');
    const { page } = web;
    const project = await Project.findOne({ name: 'Badges' }).lean<ProjectDoc>();
    const check = await seeded(project!);

    await web.goto(base);
    await web.submit(`nav.tabs a[href="${base}badges/"]`);
    const loaded = () => page.$eval('#badge-preview', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('#badge-preview')?.naturalWidth);
    expect(await loaded()).to.equal(true);
    expect(await page.$eval('#badge-url', (input) => (input as HTMLInputElement).value)).to.match(/\/badge\/[-0-9a-f]{36}\/[-\w]{8}\.svg$/);
    expect(await page.$eval('#copy-url', (button) => (button as HTMLButtonElement).hidden)).to.equal(false);
    expect(await seriousFindings(page), 'badges page').to.deep.equal([]);
    await page.screenshot({ path: `${SHOTS}badges.png` });

    // Without JavaScript: the form still chooses, by reloading the page with the choices in the query string.
    await page.setJavaScriptEnabled(false);
    await web.goto(`${base}badges/`);
    expect(await page.$eval('#copy-url', (button) => (button as HTMLButtonElement).hidden)).to.equal(true);
    await page.select('#scope', `check:${check._id}`);
    await page.click('input[name="format"][value="shields"]');
    await page.click('input[name="states"][value="2"]');
    await web.submit('#badge-form button[type=submit]');
    expect(await page.$eval('#badge-url', (input) => (input as HTMLInputElement).value)).to.match(new RegExp(`/b/2/${check.badgeKey}\\.shields$`));
    expect(new URL(page.url()).searchParams.get('format')).to.equal('shields');
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('#badge-preview')?.naturalWidth);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
