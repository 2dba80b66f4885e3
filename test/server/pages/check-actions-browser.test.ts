/**
 * A check's actions in a real browser (server/pages/checks/check-actions.ts): Ping now changes the ping count and last ping, a copy opens on its own page,
 * a transfer lands on the check in the other project; the check page and the clear confirmation scanned by axe. Screenshots of the check page with
 * its actions and of the confirmation to docs/screenshots/check-actions.png and check-clear.png.
 */
import { expect } from 'chai';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { Check } from '../../../shared/models/check.js';
import { buildCheck } from '../../helpers/factories.js';
import { seriousFindings } from '../../helpers/axe.js';
import { signInToNewProject, useBrowser } from '../../helpers/pages.js';

describe('check actions in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('pings now, copies and transfers a check', async () => {
    const { web, base } = await signInToNewProject(fixture, 'actions@example.org', 'Actions');
    const { page } = web;
    await web.goto('/projects/');
    const second = await web.createProject('Elsewhere');
    const project = await Project.findOne({ name: 'Actions' }).lean<ProjectDoc>();
    const check = await buildCheck({ project: project!, apiKey: '', apiKeyReadonly: '', pingKey: '' }, { name: 'nightly backup', timeout: 3600, grace: 300 });
    const one = `${base}checks/${check._id}/`;

    await web.goto(one);
    expect(await web.text('#last-ping')).to.equal('never');
    expect(await seriousFindings(page), 'check page').to.deep.equal([]);
    await page.screenshot({ path: 'docs/screenshots/check-actions.png' });
    await web.submit('#ping-now');
    expect(web.path()).to.equal(one);
    expect(await web.text('p.notice')).to.contain('Ping sent');
    expect(await web.text('#last-ping')).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await page.$eval('dl.facts', (el) => el.textContent)).to.match(/Pings\s*1/);
    expect(await web.text('#check-status')).to.equal('up');

    await web.goto(`${one}clear/`);
    expect(await seriousFindings(page), 'clear confirmation').to.deep.equal([]);
    await page.screenshot({ path: 'docs/screenshots/check-clear.png' });
    // Create a copy asks first: the script's dialog (the page without the script shows a confirmation page instead).
    await web.goto(one);
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await web.submit('#copy-check');
    expect(asked).to.deep.equal(['Create a copy of “nightly backup”? It gets the same settings and a ping URL of its own.']);
    const copy = await Check.findOne({ name: 'nightly backup (copy)' }).lean();
    expect(web.path()).to.equal(`${base}checks/${copy?._id}/`);
    expect(await web.text('h1')).to.equal('nightly backup (copy)');

    await web.goto(one);
    await page.select('#transfer-project', second.split('/')[2]);
    await web.submit('#transfer-check');
    expect(web.path()).to.equal(`${second}checks/${check._id}/`);
    expect(await web.text('nav.tabs .project-name')).to.equal('Elsewhere');
    expect(await Check.findById(check._id).lean()).to.include({ projectId: second.split('/')[2], nPings: 1 });
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
