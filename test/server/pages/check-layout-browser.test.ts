/**
 * The check page's layout in chromium at 1280×900 (views/check.eta, static/events.js): the controls beside the events,
 * Pause and the ping URL's Copy in the first screen, Copy selecting and copying the URL, the description's line break
 * and link, the duration chart's axes, the integrations' switches in place (what the Management API then reports), and
 * the title and favicon of this check alone. Light and dark pass axe; their screenshots go to docs/screenshots/
 * (check-light.png, check-dark.png, shown in docs/web-app.md).
 */
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Ping } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import { hashApiKey } from '../../../shared/services/projects.js';
import { buildChannel, buildCheck, type TestProject } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser, type WebPage } from '../../helpers/pages.js';

const SHOTS = new URL('../../../../docs/screenshots/', import.meta.url).pathname;
const SCREEN = { width: 1280, height: 900 };
const MINUTE = 60_000;
const API_KEY = `hcw_${'k'.repeat(28)}`;

/** The project created through the pages, with a write key the test knows. */
async function projectNamed(name: string): Promise<TestProject> {
  const project = await Project.findOneAndUpdate({ name }, { $set: { apiKeyHash: hashApiKey(API_KEY) } }, { returnDocument: 'after' }).lean<ProjectDoc>();
  return { project: project!, apiKey: API_KEY, apiKeyReadonly: '', pingKey: '' };
}

/** A check pinged as a nightly job is: a few runs, a log line, a flip up, and two integrations of which one is on. */
async function seeded(built: TestProject) {
  const mail = await buildChannel(built, { name: 'ops mail' });
  const hook = await buildChannel(built, { name: 'deploy hook', kind: 'webhook', value: 'https://hooks.example.org/x' });
  const now = Date.now();
  const check = await buildCheck(built, {
    name: 'nightly backup', tags: 'prod db', status: 'up', timeout: 86400, grace: 3600, nPings: 7, lastPing: new Date(now - 5 * MINUTE), channels: [mail._id],
    desc: 'Dumps the orders database to object storage.\nRunbook: https://wiki.example.org/runbooks/backup',
  });
  const at = (minutes: number) => new Date(now - minutes * MINUTE);
  const pings = [['start', 3000], ['success', 2980], ['start', 1560], ['log', 1555], ['success', 1530], ['start', 30], ['success', 5]] as const;
  await Ping.insertMany(pings.map(([kind, minutes], i) => ({ checkId: check._id, n: i + 1, kind, created: at(minutes), scheme: 'https', method: 'POST', remoteAddr: '203.0.113.7', ua: 'curl/8.5.0', body: kind === 'log' ? Buffer.from('dumped 1,204 tables') : null })));
  await Flip.create({ checkId: check._id, created: at(2980), recorded: at(2980), oldStatus: 'new', newStatus: 'up', reason: '' });
  return { check, mail, hook };
}

/** The element's box in the viewport, CSS pixels. */
function boxOf(web: WebPage, selector: string): Promise<{ top: number; bottom: number; left: number; right: number }> {
  return web.page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });
}

describe("the check page's layout in a browser", function () {
  this.timeout(180_000);
  const fixture = useBrowser();

  it('puts Pause and Copy in the first screen beside the events; Copy takes the URL; light and dark pass axe', async () => {
    const { web, base } = await signInToNewProject(fixture, 'layout@example.org', 'Layout', SCREEN);
    const { check } = await seeded(await projectNamed('Layout'));
    await web.goto(`${base}checks/${check._id}/`);
    for (const selector of ['#pause-check', 'button[data-copy="ping-url"]']) {
      const box = await boxOf(web, selector);
      expect(box.top, selector).to.be.at.least(0);
      expect(box.bottom, selector).to.be.at.most(SCREEN.height);
    }
    expect(await web.page.$eval('button[data-copy="ping-url"]', (b) => b.hidden)).to.equal(false);
    // Two columns: the events start right of the controls, at the top of the page.
    const [controls, story] = [await boxOf(web, '.check-controls'), await boxOf(web, '.check-story')];
    expect(story.left).to.be.above(controls.right);
    expect((await boxOf(web, '#events-list')).top).to.be.below(SCREEN.height);
    // Every event is one line: a row no taller than a line of its label and padding.
    const heights = await web.page.$$eval('#events-rows tr', (rows) => rows.map((row) => row.getBoundingClientRect().height));
    expect(heights).to.have.length(8);
    for (const h of heights) expect(h).to.be.below(34);
    // Kind labels, coloured by kind.
    expect(await web.page.$$eval('#events-rows .kind', (labels) => labels.map((l) => l.className.replace(/ ping-kind$/, '')))).to.include.members(['kind kind-success', 'kind kind-start', 'kind kind-log', 'kind kind-flip-up']);

    await web.page.browserContext().overridePermissions(fixture.origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    const url = await web.text('#ping-url');
    await web.page.click('button[data-copy="ping-url"]');
    await web.page.waitForFunction(() => document.querySelector('button[data-copy]')?.textContent !== 'Copy');
    expect(await web.page.evaluate(() => window.getSelection()?.toString())).to.equal(url);
    expect(await web.page.evaluate(() => navigator.clipboard.readText())).to.equal(url);

    // The description keeps its line break; its URL is a link that passes no referrer and no ranking.
    expect(await web.page.$$eval('#check-desc br', (brs) => brs.length)).to.equal(1);
    const link = await web.page.$eval('#check-desc a', (a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel'), text: a.textContent }));
    expect(link).to.deep.equal({ href: 'https://wiki.example.org/runbooks/backup', rel: 'nofollow noopener', text: 'https://wiki.example.org/runbooks/backup' });

    // A click on a ping's row opens its details in place.
    await web.page.click('#ping-4 td.source');
    expect(await web.page.$eval('#ping-4', (row) => row.classList.contains('open'))).to.equal(true);

    expect(await seriousFindings(web.page), 'axe, light').to.deep.equal([]);
    await web.page.screenshot({ path: `${SHOTS}check-light.png` });
    await web.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await web.goto(`${base}checks/${check._id}/`);
    expect(await seriousFindings(web.page), 'axe, dark').to.deep.equal([]);
    await web.page.screenshot({ path: `${SHOTS}check-dark.png` });
    expect(web.errors, 'script errors').to.deep.equal([]);
  });

  it('draws the duration chart with axis ticks for 1 run and for 100', async () => {
    const { web, base } = await signInToNewProject(fixture, 'charts@example.org', 'Charts', SCREEN);
    const built = await projectNamed('Charts');
    const runs = async (name: string, count: number) => {
      const check = await buildCheck(built, { name, nPings: 2 * count, status: 'up' });
      const now = Date.now();
      await Ping.insertMany(Array.from({ length: count }, (_, i) => [
        { checkId: check._id, n: 2 * i + 1, kind: 'start', created: new Date(now - (count - i) * 60 * MINUTE) },
        { checkId: check._id, n: 2 * i + 2, kind: 'success', created: new Date(now - (count - i) * 60 * MINUTE + (i + 1) * 1000) },
      ]).flat());
      await web.goto(`${base}checks/${check._id}/`);
      return web.page.$eval('#duration-chart svg', (svg) => ({
        bars: svg.querySelectorAll('rect.run-success').length,
        values: [...svg.querySelectorAll('.value-axis text')].map((t) => t.textContent),
        times: svg.querySelectorAll('.time-axis text').length,
        barHeight: Math.max(...[...svg.querySelectorAll('rect')].map((r) => r.getBoundingClientRect().height)),
        plotHeight: svg.querySelector('.value-axis line')!.getBoundingClientRect().top - svg.querySelector('.value-axis line:last-of-type')!.getBoundingClientRect().top,
      }));
    };
    const one = await runs('once', 1);
    expect(one).to.include({ bars: 1, times: 1 });
    expect(one.values).to.deep.equal(['0', '0.5 s', '1 s']);
    const hundred = await runs('hourly', 100);
    expect(hundred).to.include({ bars: 100, times: 5 });
    expect(hundred.values).to.deep.equal(['0', '30 s', '1 min', '1 min 30 s', '2 min']);
    expect(await seriousFindings(web.page), 'axe on 100 runs').to.deep.equal([]);
  });

  it('switches integrations in place, as the API then reports; the title and favicon follow this check only', async () => {
    const { web, base } = await signInToNewProject(fixture, 'switch@example.org', 'Switches', SCREEN);
    const built = await projectNamed('Switches');
    const { check, mail, hook } = await seeded(built);
    await buildCheck(built, { name: 'broken job', status: 'down', lastPing: new Date(Date.now() - 7200_000) });
    await web.goto(`${base}checks/${check._id}/`);
    const api = async () => (await (await fetch(`${fixture.origin}/api/v3/checks/${check._id}`, { headers: { 'X-Api-Key': API_KEY } })).json()) as { channels: string };
    expect((await api()).channels).to.equal(mail._id);
    await web.page.click(`button[data-channel="${hook._id}"]`);
    await web.page.waitForFunction((id) => document.querySelector(`button[data-channel="${id}"]`)?.getAttribute('aria-pressed') === 'true', {}, hook._id);
    expect((await api()).channels.split(',').sort()).to.deep.equal([mail._id, hook._id].sort());
    expect(await web.text('#check-channels')).to.equal('ops mail, deploy hook');
    await web.page.click(`button[data-channel="${mail._id}"]`);
    await web.page.waitForFunction((id) => document.querySelector(`button[data-channel="${id}"]`)?.getAttribute('aria-pressed') === 'false', {}, mail._id);
    expect((await api()).channels).to.equal(hook._id);
    expect(web.path()).to.equal(`${base}checks/${check._id}/`);

    // Another check is down: this healthy one's title has no down count and its favicon is the normal one, also after a live poll.
    const title = () => web.page.title();
    const icon = () => web.page.$eval('#favicon', (l) => l.getAttribute('href'));
    expect(await title()).to.match(/^nightly backup · /);
    expect(await icon()).to.equal('/static/favicon.svg');
    await web.page.waitForResponse((res) => res.url().includes(`/checks/${check._id}/events?`));
    expect(await title()).to.match(/^nightly backup · /);
    expect(await icon()).to.equal('/static/favicon.svg');
    await web.goto(base);
    expect(await title()).to.match(/^1 down · /);
    expect(web.errors, 'script errors').to.deep.equal([]);
  });
});
