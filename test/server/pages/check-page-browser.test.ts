/**
 * A check's story in a real browser (server/pages/checks/check-page.ts, static/events.js): chromium keeps the check page open
 * while the job pings. A multi-line POST body appears live and in the ping's details, a /start then a success shows the
 * run's duration, the state in words follows, and the check page, the details and the log pass an axe scan. The check
 * page's screenshot goes to docs/screenshots/check-page.png.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser, type WebPage } from '../../helpers/pages.js';

/** docs/screenshots/ of the checkout: from dist/test/server/pages/ four levels up. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
/** How long a live row may take to appear: the script polls every 2 s; generous for a loaded machine. */
const LIVE_MS = 20_000;

/** The text of `selector` once it exists on the page shown (the live script puts it there). */
async function liveText(web: WebPage, selector: string): Promise<string> {
  await web.page.waitForSelector(selector, { timeout: LIVE_MS });
  return web.text(selector);
}

describe("a check's story in a browser", function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('shows pings live as the job sends them, their details and durations, with no serious accessibility finding', async () => {
    const { web, base } = await signInToNewProject(fixture, 'story@example.org', 'Story');
    const project = await Project.findOne({ name: 'Story' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'nightly backup', timeout: 86400 });
    const ping = async (path: string, init: RequestInit = {}) => expect((await fetch(`${fixture.origin}/ping/${check._id}${path}`, init)).status).to.equal(200);

    await web.goto(`${base}checks/${check._id}/`);
    expect(await web.text('#check-state')).to.equal('new, never pinged');
    expect(await web.text('#no-events')).to.contain('Nothing has happened yet');

    // As `curl --data-binary @report.txt` sends it: a POST with a multi-line body, while the page is open.
    const body = 'backup finished\n1,204 files\n<b>3.4 GB</b>';
    await ping('', { method: 'POST', body, headers: { 'content-type': 'text/plain', 'user-agent': 'curl/8.5.0' } });
    expect(await liveText(web, '#ping-1 td.preview code')).to.equal(body);
    expect(await web.text('#ping-1 .ua')).to.equal('curl/8.5.0');
    expect(await web.text('#check-state')).to.match(/^up, last ping (just now|\d+ seconds? ago)$/);

    // A run: /start, then a success; the success shows its duration since the start.
    await ping('/start');
    expect(await liveText(web, '#ping-2 .ping-kind')).to.equal('start');
    await ping('');
    expect(await liveText(web, '#ping-3 .duration')).to.match(/^after \d+(\.\d+)? s$/);
    expect(await web.page.$$eval('#events-rows tr[id]', (rows) => rows.map((row) => row.id))).to.deep.equal(['ping-3', 'ping-2', 'ping-1']);
    // The facts pings change follow too: the count, and the last ping's exact time.
    await web.page.waitForFunction(() => document.querySelector('#n-pings')?.textContent === '3', { timeout: 15_000 });
    const lastPing = (await Check.findById(check._id).lean<CheckDoc>())!.lastPing!;
    expect(await web.text('#last-ping')).to.equal(`${lastPing.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    // The first ping's flip (new → up) comes live too, once the web process has recorded it.
    expect(await liveText(web, '#events-rows tr.event-flip .status')).to.equal('new → up');
    expect(await seriousFindings(web.page), 'axe on the check page').to.deep.equal([]);
    await web.page.screenshot({ path: `${SCREENSHOTS}check-page.png` });

    // The row opens the ping's details: the whole body, as sent.
    await web.submit('#ping-1 th a');
    expect(web.path()).to.equal(`${base}checks/${check._id}/pings/1/`);
    expect(await web.text('#ping-body')).to.equal(body);
    expect(await web.text('#ping-source')).to.match(/^HTTP POST from /);
    expect(await seriousFindings(web.page), 'axe on the ping details').to.deep.equal([]);

    // The full log, filtered to start pings through its form.
    await web.goto(`${base}checks/${check._id}/log/`);
    await web.page.select('#events-kind', 'start');
    await web.submit('form.events-filter button');
    expect(await web.page.$$eval('#events-rows tr', (rows) => rows.map((row) => row.id))).to.deep.equal(['ping-2']);
    expect(await seriousFindings(web.page), 'axe on the log').to.deep.equal([]);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
