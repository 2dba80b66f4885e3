/**
 * The account page in Chromium (docs/web-app.md, "Account"): a person signed in on two browsers lists both sessions
 * and signs the other out, whose next page is the sign-in page; then leaves a project they were invited to.
 */
import { join as joinPath } from 'node:path';
import { expect } from 'chai';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';
import { buildProject } from '../../helpers/factories.js';
import { join } from '../../helpers/web.js';
import { Membership } from '../../../shared/models/membership.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

describe('account page in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('lists two sessions, signs the other one out, and leaves a project', async () => {
    const created = await runCli(['user', 'create', '--email', 'ann@example.org']);
    expect(created.code, created.stderr).to.equal(0);
    const { password } = jsonOf(created) as { password: string };
    const ann = (await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!;
    const { project } = await buildProject({ name: 'Team backups' });
    await join(project._id, ann, 'rw');

    const laptop = await WebPage.open(fixture.browser, fixture.origin);
    await laptop.page.setUserAgent('Laptop browser');
    const phone = await WebPage.open(fixture.browser, fixture.origin);
    await phone.page.setUserAgent('Phone browser');
    for (const web of [laptop, phone]) {
      await web.goto('/signin/');
      await web.signIn('ann@example.org', password);
      expect(web.path()).to.equal('/projects/');
    }

    await laptop.goto('/account/');
    const devices = () => laptop.page.$$eval('#sessions tbody tr td:first-child', (cells) => cells.map((td) => td.textContent?.trim() ?? ''));
    expect(await devices()).to.deep.equal(['Laptop browser (this session)', 'Phone browser']);
    await laptop.page.screenshot({ path: joinPath(TEST_OUTPUT_DIR, 'webapp-account.png'), fullPage: true });
    await laptop.submit('#sessions tbody tr:not([data-current]) button');
    expect(await laptop.text('.notice')).to.contain('One session signed out.');
    expect(await devices()).to.deep.equal(['Laptop browser (this session)']);
    await phone.goto('/projects/');
    expect(phone.path()).to.equal('/signin/');

    await laptop.submit(`#account-projects tr[data-project="${project._id}"] button`);
    expect(laptop.path()).to.equal('/projects/');
    expect(await laptop.text('.notice')).to.contain('You have left “Team backups”.');
    expect(await Membership.countDocuments({ projectId: project._id })).to.equal(0);
    expect([...laptop.errors, ...phone.errors]).to.deep.equal([]);
  });
});
