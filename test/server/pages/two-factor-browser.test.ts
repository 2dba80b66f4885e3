/**
 * Second factors in Chromium (docs/web-app.md, "Two-factor authentication"): add an authenticator app from its page (the key under the
 * QR code typed into a real TOTP generator, otplib), sign in with its code, then with a recovery code; a project that
 * requires a second factor sends a member without one to add it.
 */
import { join as joinPath } from 'node:path';
import { expect } from 'chai';
import { generate } from 'otplib';
import { TEST_OUTPUT_DIR } from '../../helpers/browser.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';
import { buildProject } from '../../helpers/factories.js';
import { join } from '../../helpers/web.js';
import { Project } from '../../../shared/models/project.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

/** Creates a user with hc-admin. @returns The generated password. */
async function newUser(email: string): Promise<string> {
  const created = await runCli(['user', 'create', '--email', email]);
  expect(created.code, created.stderr).to.equal(0);
  return (jsonOf(created) as { password: string }).password;
}

describe('second factors in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('adds an authenticator app, signs in with its code, then with a recovery code', async () => {
    const password = await newUser('ann@example.org');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await web.goto('/signin/');
    await web.signIn('ann@example.org', password);
    await web.goto('/account/');
    await web.submit('#add-totp');
    expect(await web.page.$eval('figure.qr svg', (svg) => svg.getAttribute('viewBox'))).to.match(/^0 0 \d+ \d+$/);
    await web.page.screenshot({ path: joinPath(TEST_OUTPUT_DIR, 'webapp-totp-add.png'), fullPage: true });
    const secret = await web.text('#totp-secret');
    await web.fill('#totp-name', 'Work phone');
    await web.fill('#totp-code', await generate({ secret }));
    await web.submit('form[action="/account/two-factor/totp"] button');
    const codes = await web.page.$$eval('#recovery-codes code', (items) => items.map((code) => code.textContent ?? ''));
    expect(codes).to.have.length(10);
    await web.submit('a.button.primary');
    expect(await web.page.$$eval('#totp-apps tbody td:first-child', (cells) => cells.map((td) => td.textContent))).to.deep.equal(['Work phone']);

    const later = await WebPage.open(fixture.browser, fixture.origin);
    await later.goto('/signin/');
    await later.signIn('ann@example.org', password);
    expect(later.path()).to.equal('/signin/two-factor');
    await later.fill('#code', await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await later.submit('form[action="/signin/two-factor"] button');
    expect(later.path()).to.equal('/projects/');

    const lost = await WebPage.open(fixture.browser, fixture.origin);
    await lost.goto('/signin/');
    await lost.signIn('ann@example.org', password);
    await lost.fill('#code', codes[0]);
    await lost.submit('form[action="/signin/two-factor"] button');
    expect(lost.path()).to.equal('/projects/');
    expect((await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!.recoveryCodes).to.have.length(9);
    expect([...web.errors, ...later.errors, ...lost.errors]).to.deep.equal([]);
  });

  it('sends a member without a second factor to add one when the project requires it', async () => {
    const password = await newUser('bob@example.org');
    const bob = (await User.findOne({ email: 'bob@example.org' }).lean<UserDoc>())!;
    const { project } = await buildProject({ name: 'Payments' });
    await join(project._id, bob, 'rw');
    await Project.updateOne({ _id: project._id }, { $set: { requireSecondFactor: true } });
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await web.goto(`/projects/${project._id}/`);
    await web.signIn('bob@example.org', password);
    expect(web.path()).to.equal('/account/two-factor/totp');
    expect(await web.text('.notice')).to.contain('The project “Payments” asks every member for a second factor');
    const secret = await web.text('#totp-secret');
    await web.fill('#totp-code', await generate({ secret }));
    await web.submit('form[action="/account/two-factor/totp"] button');
    await web.goto(`/projects/${project._id}/`);
    expect(web.path()).to.equal(`/projects/${project._id}/`);
    expect(web.errors).to.deep.equal([]);
  });
});
