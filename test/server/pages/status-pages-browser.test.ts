/**
 * Public status pages in a real browser (docs/status-pages.md): an owner builds a page with two sections and three checks
 * and publishes it; a visitor without an account sees it, sees a check's outage arrive live, and an incident note in the page, its JSON and its
 * Atom feed; a password-protected page asks for its password. axe scans the editor, the incidents page, the public page and the password form.
 * Screenshots go to docs/screenshots/.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';

/** docs/screenshots/ of the checkout: from dist/test/server/pages/ four levels up. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
/** How long the visitor's page may take to follow a change here; the bench's `status-page` phase measures the real delay (≤ 2 s). */
const LIVE_MS = 15_000;

describe('public status pages in a browser', function () {
  this.timeout(180_000);
  const fixture = useBrowser();

  it('an owner publishes a page of two sections and three checks; a visitor sees it, an outage live, and an incident in the page and its feeds', async () => {
    const { web, base } = await signInToNewProject(fixture, 'status-owner@example.org', 'Acme');
    const project = { project: (await Project.findOne({ name: 'Acme' }).lean<ProjectDoc>())!, apiKey: '', apiKeyReadonly: '', pingKey: '' };
    const names = ['db-backup-prod-7', 'offsite-sync-eu', 'billing-cron-42'];
    const checks = await Promise.all(names.map((name) => buildCheck(project, { name, tags: 'internal-tag', timeout: 86400 })));
    const ping = async (i: number, path = '') => expect((await fetch(`${fixture.origin}/ping/${checks[i]._id}${path}`)).status).to.equal(200);
    for (const i of [0, 1, 2]) await ping(i);

    await web.goto(`${base}status-pages/`);
    await web.submit('a[href$="status-pages/new/"]');
    await web.fill('#title', 'Acme <b>status</b>');
    await web.fill('#slug', 'acme');
    await web.fill('#description', 'Jobs behind "acme.example" & friends');
    await web.page.click('input[name=published]');
    await web.submit('#settings button[type=submit]');
    expect(await web.text('.notice')).to.contain('Status page “Acme <b>status</b>” created');

    // Two sections, three checks: a section with its first component, then a second component and a second section.
    await web.fill('#section_0_name', 'Backups');
    await web.page.select('#section_0_check_0', checks[0]._id);
    await web.fill('#section_0_name_0', 'Nightly backup');
    await web.submit('#sections button[type=submit]');
    await web.page.select('#section_0_check_1', checks[1]._id);
    await web.fill('#section_0_name_1', 'Offsite copy');
    await web.fill('#section_1_name', 'Billing');
    await web.page.select('#section_1_check_0', checks[2]._id);
    await web.fill('#section_1_name_0', 'Invoice run');
    await web.submit('#sections button[type=submit]');
    expect(await web.text('.notice')).to.equal('Components saved.');
    expect(await seriousFindings(web.page), 'axe on the editor').to.deep.equal([]);
    await web.page.screenshot({ path: `${SCREENSHOTS}status-page-editor.png`, fullPage: true });

    // A visitor: no account, no session.
    const visitor = await WebPage.open(fixture.browser, fixture.origin);
    await visitor.goto('/status/acme/');
    expect(await visitor.text('h1')).to.equal('Acme <b>status</b>');
    expect(await visitor.text('#overall')).to.equal('All systems operational');
    expect(await visitor.page.$$eval('.section h2', (hs) => hs.map((h) => h.textContent))).to.deep.equal(['Backups', 'Billing']);
    expect(await visitor.page.$$eval('.component-name', (cs) => cs.map((c) => c.textContent))).to.deep.equal(['Nightly backup', 'Offsite copy', 'Invoice run']);
    const html = await visitor.page.content();
    for (const secret of [...names, ...checks.map((c) => c._id), 'internal-tag', '/ping/']) expect(html).not.to.contain(secret);

    // A check goes down while the visitor watches.
    await ping(2, '/fail');
    await visitor.page.waitForFunction(() => document.querySelector('#overall')?.textContent === 'Partial outage', { timeout: LIVE_MS });
    expect(await visitor.page.$$eval('.component .state', (ss) => ss.map((s) => s.textContent))).to.deep.equal(['Operational', 'Operational', 'Outage']);
    expect(await seriousFindings(visitor.page), 'axe on the public page').to.deep.equal([]);
    // Today's downtime of the bar: on focus with the keyboard, and on hover.
    await visitor.page.$eval('svg[aria-describedby="tip-1-0"]', (svg) => (svg as SVGElement).focus());
    await visitor.page.keyboard.press('End');
    await visitor.page.waitForFunction(() => /^\d{4}-\d\d-\d\d: 1 downtime, .+ down \(/.test(document.querySelector('#tip-1-0')?.textContent ?? ''), { timeout: LIVE_MS });
    await visitor.page.hover('svg[aria-describedby="tip-0-0"] rect:first-of-type');
    await visitor.page.waitForFunction(() => /: not monitored$/.test(document.querySelector('#tip-0-0')?.textContent ?? ''), { timeout: LIVE_MS });

    // An incident note, posted by the owner, reaches the page, its JSON and its Atom feed.
    await web.goto(`${web.path()}incidents/`);
    await web.fill('#title', 'Invoices <i>late</i>');
    await web.fill('#text', 'The billing run failed; retrying.');
    await web.submit('form[aria-labelledby=new-incident] button');
    expect(await seriousFindings(web.page), 'axe on the incidents page').to.deep.equal([]);
    await visitor.page.waitForSelector('.incident h3', { timeout: LIVE_MS });
    expect(await visitor.text('.incident h3')).to.match(/^Invoices <i>late<\/i> Investigating$/);
    await visitor.page.screenshot({ path: `${SCREENSHOTS}status-page.png`, fullPage: true });
    const json = (await (await fetch(`${fixture.origin}/status/acme/status.json`)).json()) as { status: { description: string }; incidents: { title: string }[] };
    expect(json.status.description).to.equal('Partial outage');
    expect(json.incidents.map((i) => i.title)).to.deep.equal(['Invoices <i>late</i>']);
    const atom = await (await fetch(`${fixture.origin}/status/acme/feed.atom`)).text();
    expect(atom).to.contain('<title>Invoices &lt;i&gt;late&lt;/i&gt; (investigating)</title>');
    expect(web.errors.concat(visitor.errors), 'script errors').to.deep.equal([]);
  });

  it('a password-protected page asks for its password, refuses a wrong one beside the field and opens with the right one', async () => {
    const { web, base } = await signInToNewProject(fixture, 'status-private@example.org', 'Private');
    await web.goto(`${base}status-pages/new/`);
    await web.fill('#title', 'Internal jobs');
    await web.fill('#slug', 'internal-jobs');
    await web.page.click('input[name=visibility][value=password]');
    await web.page.click('input[name=published]');
    await web.submit('#settings button[type=submit]');
    expect(await web.text('#password-error')).to.contain('at least 8 characters');
    await web.fill('#password', 'correct horse');
    await web.submit('#settings button[type=submit]');
    expect(await web.text('.notice')).to.contain('created');

    const visitor = await WebPage.open(fixture.browser, fixture.origin);
    await visitor.goto('/status/internal-jobs/');
    expect(await visitor.text('h1')).to.equal('This status page is protected');
    expect(await seriousFindings(visitor.page), 'axe on the password form').to.deep.equal([]);
    await visitor.fill('#password', 'wrong horse');
    await visitor.submit('form button[type=submit]');
    expect(await visitor.text('#password-error')).to.equal('Wrong password: try again.');
    await visitor.fill('#password', 'correct horse');
    await visitor.submit('form button[type=submit]');
    expect(visitor.path()).to.equal('/status/internal-jobs/');
    expect(await visitor.text('h1')).to.equal('Internal jobs');
    expect(visitor.errors, 'script errors').to.deep.equal([]);
  });
});
