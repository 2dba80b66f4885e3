/**
 * An accessibility scan (axe-core, WCAG 2 A/AA) of the web app's pages in Chromium: every page at zero serious
 * findings, a project's pages in the light and the dark theme with tags and integrations on them.
 */
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { buildChannel, buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser, WebPage } from '../../helpers/pages.js';

describe('web app accessibility (axe-core, Chromium)', function () {
  this.timeout(240_000);
  const fx = useBrowser();

  it('the scan reports a serious finding when there is one (an image without text)', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    await tab.page.setContent('<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>');
    expect((await seriousFindings(tab.page)).join('\n')).to.match(/^image-alt \(critical\)/);
  });

  it('the signed-out pages have no serious findings', async () => {
    const tab = await WebPage.open(fx.browser, fx.origin);
    for (const path of ['/signin/', '/signup/', '/signin/reset/', '/docs/', '/docs/checks', '/wall/', '/docs/no-such-doc']) {
      await tab.goto(path);
      expect(await seriousFindings(tab.page), path).to.deep.equal([]);
    }
    expect(tab.errors).to.deep.equal([]);
  });

  it('a project’s and an account’s pages have no serious findings, in the light and the dark theme, with tags and integrations', async () => {
    const { web, base } = await signInToNewProject(fx, 'axe@example.org', 'Scanned');
    const project = (await Project.findOne({ name: 'Scanned' }).lean<ProjectDoc>())!;
    const built = { project, apiKey: '', apiKeyReadonly: '', pingKey: '' };
    const channels = [
      await buildChannel(built, { name: 'ops mail' }),
      await buildChannel(built, { name: 'deploy hook', kind: 'webhook', value: 'https://hooks.example.org/hc' }),
      await buildChannel(built, { name: 'team chat', kind: 'slack', value: 'https://hooks.slack.com/services/T/B/x' }),
    ];
    const ids = channels.map((c) => c._id);
    const up = await buildCheck(built, { name: 'nightly backup', tags: 'prod db', status: 'up', lastPing: new Date(), channels: ids });
    await buildCheck(built, { name: 'queue', tags: 'staging web', status: 'down', lastPing: new Date(Date.now() - 86_400_000), channels: ids });
    const paths = [
      '/projects/', base, `${base}checks/${up._id}/`, `${base}checks/${up._id}/edit/`, `${base}checks/new/`, `${base}integrations/`,
      `${base}integrations/${channels[1]._id}/edit/`, `${base}maintenance/`, `${base}maintenance/new/`, `${base}members/`, `${base}settings/`,
      `${base}badges/`, `${base}timeline/`, `${base}status-pages/`, `${base}checks/00000000-0000-4000-8000-000000000000/`,
      '/account/', '/account/two-factor/totp', '/account/two-factor/webauthn', '/account/close',
    ];
    for (const theme of ['light', 'dark']) {
      await web.goto('/account/');
      await Promise.all([web.page.waitForResponse((res) => res.url().endsWith('/account/theme')), web.page.select('form.theme-switch select', theme)]);
      for (const path of paths) {
        await web.goto(path);
        expect(await web.page.$eval('html', (el) => el.dataset.theme), path).to.equal(theme);
        expect(await seriousFindings(web.page), `${path} (${theme})`).to.deep.equal([]);
      }
    }
    expect(web.errors).to.deep.equal([]);
  });
});
