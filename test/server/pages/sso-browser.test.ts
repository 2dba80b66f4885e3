/**
 * Single sign-on in Chromium (docs/web-app.md, "Single sign-on"): sign in through a real OpenID Connect provider started by
 * the test (oidc-provider), as a new person (an account is made) and as an existing one; an address the provider does
 * not vouch for, and a domain outside OIDC_ALLOWED_DOMAINS, are refused with a message.
 */
import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { launchBrowser, serveApp, type Served } from '../../helpers/browser.js';
import { WebPage } from '../../helpers/pages.js';
import { freePort } from '../../helpers/services.js';
import { OIDC_CLIENT, startOidcProvider, type TestProvider } from '../../helpers/oidc-provider.js';
import { buildUser, PASSWORD } from '../../helpers/web.js';
import { authenticate } from '../../../shared/services/users.js';
import { User } from '../../../shared/models/user.js';

/** Presses the sign-in page's single sign-on button and logs in at the provider's development pages as `login`. */
async function signInAtProvider(web: WebPage, login: string): Promise<void> {
  await web.goto('/signin/');
  await web.submit('#sso');
  await web.page.waitForSelector('input[name="login"]');
  await web.page.type('input[name="login"]', login);
  await web.page.type('input[name="password"]', 'anything');
  await Promise.all([web.page.waitForNavigation(), web.page.click('button[type="submit"]')]);
  // The provider asks once to allow the app: "Continue".
  if (await web.page.$('button[autofocus]')) await Promise.all([web.page.waitForNavigation(), web.page.click('button[autofocus]')]);
}

describe('single sign-on in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let app: Served;
  let provider: TestProvider;
  before(async () => {
    browser = await launchBrowser();
    const port = await freePort();
    app = await serveApp({
      web: () => ({ sso: { oidc: { issuer: `http://127.0.0.1:${port}`, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, allowedDomains: ['example.org'], label: 'Sign in with Example SSO' }, remoteUserHeader: null, passwordSignIn: true } }),
    });
    provider = await startOidcProvider(port, `${app.origin}/signin/oidc/callback`, {
      unverified: { email: 'unverified@example.org', email_verified: false },
      outsider: { email: 'someone@elsewhere.net', email_verified: true },
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
  });

  it('signs a new person in through the provider (an account is made), and an existing one into their account', async () => {
    const web = await WebPage.open(browser, app.origin);
    await signInAtProvider(web, 'newcomer');
    expect(web.path()).to.equal('/projects/');
    expect(await web.text('nav[aria-label="Account"] a[href="/account/"]')).to.equal('newcomer@example.org');
    expect(await User.countDocuments({ email: 'newcomer@example.org' })).to.equal(1);

    // An account made otherwise is linked at its first single sign-on once its own password is typed (it has no
    // second factor): same account, and its password still signs in.
    const ann = await buildUser('ann@example.org');
    const other = await WebPage.open(browser, app.origin);
    await signInAtProvider(other, 'ann');
    expect(other.path()).to.equal('/signin/oidc/link');
    await other.page.type('#link-password', PASSWORD);
    await Promise.all([other.page.waitForNavigation(), other.page.click('button[type="submit"]')]);
    expect(other.path()).to.equal('/projects/');
    expect((await User.find({ email: 'ann@example.org' }).lean()).map((u) => u._id)).to.deep.equal([ann._id]);
    expect(await authenticate('ann@example.org', PASSWORD)).to.not.equal(null);
    expect([...web.errors, ...other.errors]).to.deep.equal([]);
  });

  it('asks a person who enrolled a second factor here for it after the provider', async () => {
    const web = await WebPage.open(browser, app.origin);
    await signInAtProvider(web, 'carol');
    await User.updateOne({ email: 'carol@example.org' }, { $set: { totp: [{ _id: 'app', name: 'Phone', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', created: new Date() }] } });
    const again = await WebPage.open(browser, app.origin);
    await signInAtProvider(again, 'carol');
    expect(again.path()).to.equal('/signin/two-factor');
    await again.goto('/projects/');
    expect(again.path()).to.equal('/signin/');
  });

  it('refuses an address the provider does not vouch for, and one outside the allowed domains, signing no one in', async () => {
    for (const [login, reason] of [['unverified', 'did not vouch for an email address'], ['outsider', 'addresses at elsewhere.net may not sign in here']]) {
      const web = await WebPage.open(browser, app.origin);
      await signInAtProvider(web, login);
      expect(await web.text('p.error')).to.contain(reason);
      await web.goto('/projects/');
      expect(web.path()).to.equal('/signin/');
    }
    expect(await User.countDocuments({ email: { $in: ['unverified@example.org', 'someone@elsewhere.net'] } })).to.equal(0);
  });
});
