/**
 * A new user's first alert in chromium at 1280 × 900, as a Healthchecks user would set it up: in a fresh project an
 * email integration added first, then a check made with the web form: the check has the integration (its page, its
 * stored channels, the integration's own list of checks), with nothing ticked by hand. Then the settings page's
 * Prometheus URL with a read-only key made there answers with the check. An axe-core scan of each page on the way.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { Check } from '../../../shared/models/check.js';
import { User } from '../../../shared/models/user.js';
import { waitFor } from '../../helpers/poll.js';
import { seriousFindings } from '../../helpers/axe.js';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

const VIEWPORT = { width: 1280, height: 900 };

describe('a new user: an email integration first, then a check (chromium, 1280 × 900)', () => {
  const fixture = useBrowser();

  it('gives the new check the integration without ticking anything', async () => {
    const { web, base } = await signInToNewProject(fixture, 'newcomer@example.org', 'First steps', VIEWPORT);
    const { page } = web;

    // The Integrations tab: an email integration, "Assign to all existing checks" ticked by default.
    await web.submit('nav.tabs a[href$="/integrations/"]');
    expect(await web.text('main')).to.contain('No integrations yet');
    await page.select('#channel-kind', 'email');
    await web.fill('#channel-name', 'on-call mail');
    await web.fill('#email-address', 'oncall@example.org');
    expect(await page.$eval('#assign-all', (box) => (box as HTMLInputElement).checked)).to.equal(true);
    await web.submit('form.channel-form button.primary');
    expect(await web.text('.notice')).to.equal('Integration added; new checks made here get it too.');
    const row = await web.text('#integrations tbody tr');
    expect(row).to.contain('on-call mail').and.contain('Email').and.contain('no delivery yet');
    expect(await page.$eval('#integrations svg.kind-icon', (svg) => svg.getAttribute('aria-label'))).to.equal('Email');
    expect(await seriousFindings(page), 'the integrations page').to.deep.equal([]);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integrations-new-user.png') });
    const channel = await Channel.findOne({ name: 'on-call mail' }).lean();

    // Then a check from the web form: its integration is ticked already; nothing else is touched.
    await web.submit('nav.tabs a[href$="/projects/' + channel?.projectId + '/"]');
    await web.submit(`a[href="${base}checks/new/"]`);
    expect(await web.text('#channels legend')).to.equal('Integrations to notify');
    expect(await page.$eval(`input[name="channel"][value="${channel?._id}"]`, (box) => box.checked)).to.equal(true);
    await web.fill('#name', 'nightly backup');
    await web.submit('form.editor button[type=submit]');
    const checkId = web.path().split('/').at(-2) ?? '';
    expect(await web.text('#check-channels')).to.equal('on-call mail');
    expect((await Check.findById(checkId).lean())?.channels).to.deep.equal([channel?._id]);

    // The integration's edit page lists the check, switched on.
    await web.goto(`${base}integrations/${channel?._id}/edit/`);
    expect(await page.$eval(`#assigned-checks tr[data-check="${checkId}"] button.toggle`, (b) => [b.getAttribute('aria-pressed'), b.textContent])).to.deep.equal(['true', 'On for nightly backup']);
    expect(await seriousFindings(page), 'the integration edit page').to.deep.equal([]);
    await page.screenshot({ path: join(TEST_OUTPUT_DIR, 'integration-checks.png'), fullPage: true });

    // In the dark theme, with a failed delivery on record: the tab's marker and the failed badge pass axe too.
    await Channel.updateOne({ _id: channel?._id }, { $set: { lastError: 'received status code 500', lastNotify: new Date() } });
    await page.select('#theme-select', 'dark');
    await waitFor('the saved theme', async () => (await User.findOne({ email: 'newcomer@example.org' }).lean())?.theme === 'dark');
    for (const path of [`${base}integrations/`, `${base}integrations/${channel?._id}/edit/`]) {
      await web.goto(path);
      expect(await web.text('#integrations-tab')).to.contain('(a delivery failed)');
      expect(await seriousFindings(page), `dark ${path}`).to.deep.equal([]);
    }
    expect(await web.text('#checks-h')).to.equal('Checks that alert through it');
    await web.goto(`${base}integrations/`);
    expect(await web.text('.delivery-badge')).to.equal('last delivery failed');
    expect(await seriousFindings(page), 'dark integrations list with a failed delivery').to.deep.equal([]);
    expect(web.errors).to.deep.equal([]);
  });

  it("shows the settings page's metrics URL with a read-only key made there, and the URL answers with the project's checks", async () => {
    const { web, base } = await signInToNewProject(fixture, 'metrics@example.org', 'Measured', VIEWPORT);
    await web.goto(`${base}checks/new/`);
    await web.fill('#name', 'hourly sync');
    await web.submit('form.editor button[type=submit]');
    await web.goto(`${base}settings/`);
    expect(await web.text('#check-count')).to.match(/^1 of \d+ checks/);
    expect(await web.text('#metrics-url')).to.contain('<read-only API key>');
    await web.submit('#metrics-key');
    const url = await web.text('#metrics-url');
    expect(url).to.match(/\/metrics\/hcr_[-\w]{28}$/);
    const served = new URL(url);
    const res = await fetch(`${fixture.origin}${served.pathname}`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.contain('name="hourly sync"');
    expect(await seriousFindings(web.page), 'the settings page').to.deep.equal([]);
  });
});
