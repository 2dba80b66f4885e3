/**
 * Security keys in Chromium (docs/web-app.md, "Security keys and passkeys"): a key added with Chrome's virtual authenticator (the DevTools
 * WebAuthn domain) through \@simplewebauthn/browser and the account page, then used to sign in; a counter that does not
 * grow (a cloned key) and an assertion for another origin are refused.
 */
import { expect } from 'chai';
import { useBrowser, WebPage } from '../../helpers/pages.js';
import { serveApp, type Served } from '../../helpers/browser.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

/** Gives the tab a virtual security key (CTAP2 over USB, user verified). */
async function virtualKey(web: WebPage): Promise<void> {
  const cdp = await web.page.createCDPSession();
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** Signs in with the password, then presses "Use a security key" and waits for the page it leads to. */
async function signInWithKey(web: WebPage, password: string): Promise<void> {
  await web.goto('/signin/');
  await web.signIn('ann@example.org', password);
  expect(web.path()).to.equal('/signin/two-factor');
  await Promise.all([web.page.waitForNavigation(), web.page.click('#use-key')]);
}

describe('security keys in a browser', function () {
  this.timeout(120_000);
  const fixture = useBrowser({ atLocalhost: true });

  it('adds a key through the virtual authenticator and signs in with it; refuses a counter that does not grow and another origin', async () => {
    const created = await runCli(['user', 'create', '--email', 'ann@example.org']);
    const { password } = jsonOf(created) as { password: string };
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await virtualKey(web);
    await web.goto('/signin/');
    await web.signIn('ann@example.org', password);
    await web.goto('/account/two-factor/webauthn');
    await web.fill('#key-name', 'Desk key');
    await Promise.all([web.page.waitForNavigation(), web.page.click('#add-key')]);
    expect(await web.page.$$eval('#recovery-codes code', (codes) => codes.length)).to.equal(10);
    const stored = (await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!;
    expect(stored.webauthn.map((key) => key.name)).to.deep.equal(['Desk key']);

    await web.goto('/account/');
    await Promise.all([web.page.waitForNavigation(), web.page.click('form[action="/signout/"] button')]);
    await signInWithKey(web, password);
    expect(web.path()).to.equal('/projects/');

    // A stored counter ahead of the key's: what a cloned key looks like. Refused.
    await User.updateOne({ _id: stored._id }, { $set: { 'webauthn.0.counter': 1_000_000 } });
    await Promise.all([web.page.waitForNavigation(), web.page.click('form[action="/signout/"] button')]);
    await signInWithKey(web, password);
    expect(web.path()).to.equal('/signin/two-factor');
    expect(await web.text('#code-error')).to.equal('That security key was not accepted.');
    await User.updateOne({ _id: stored._id }, { $set: { 'webauthn.0.counter': 0 } });

    // The same tab and key at another app whose BASE_URL (http://localhost:8000, the test settings) is not the origin
    // the browser signs for: the assertion verifies nowhere but at its own origin. Refused.
    let other: Served | undefined;
    try {
      other = await serveApp();
      await web.page.goto(`${other.origin.replace('127.0.0.1', 'localhost')}/signin/`);
      await web.signIn('ann@example.org', password);
      await Promise.all([web.page.waitForNavigation(), web.page.click('#use-key')]);
      expect(new URL(web.page.url()).pathname).to.equal('/signin/two-factor');
      expect(await web.text('#code-error')).to.equal('That security key was not accepted.');
    } finally {
      await other?.close();
    }
    expect(web.errors).to.deep.equal([]);
  });
});
