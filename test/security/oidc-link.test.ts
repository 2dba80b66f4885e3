/**
 * Single sign-on into an existing account, from outside through a real OpenID Connect provider on 127.0.0.1: the
 * first sign-in links the account only after its own second factor (or its password when it has none), keeps its
 * factors and password, and later sign-ins still ask for the factor.
 */
import { expect } from 'chai';
import { generate } from 'otplib';
import { config } from '../../shared/config.js';
import { User } from '../../shared/models/user.js';
import { authenticate } from '../../shared/services/users.js';
import { freePort } from '../helpers/services.js';
import { OIDC_CLIENT, startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { oidcSignIn } from '../helpers/oidc-login.js';
import { providerDidMfa } from '../../server/pages/account/sso.js';
import { buildUser, csrfOf, PASSWORD, webAgent } from '../helpers/web.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('security: single sign-on into an existing account', () => {
  let provider: TestProvider;
  let issuer: string;
  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider(port, `${config.baseUrl}/signin/oidc/callback`);
  });
  after(() => provider?.close());
  const agent = () => webAgent({ sso: { oidc: { issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, allowedDomains: [], label: 'SSO' }, remoteUserHeader: null, passwordSignIn: true } });
  const withApp = async (email: string) => {
    const user = await buildUser(email);
    await User.updateOne({ _id: user._id }, { $set: { totp: [{ _id: 'app', name: 'Phone', secret: SECRET, created: new Date() }] } });
    return user;
  };

  it('asks for the account’s second factor at the first sign-in, keeps its factors and password, then links', async () => {
    await withApp('frank@example.org');
    const browser = agent();
    const res = await oidcSignIn(browser, 'frank');
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal('/signin/two-factor');
    expect((await browser.get('/projects/')).status).to.equal(303);
    const stored = await User.findOne({ email: 'frank@example.org' }).lean();
    expect(stored?.totp).to.have.length(1);
    expect(stored?.ssoLinked).to.equal(false);
    expect(await authenticate('frank@example.org', PASSWORD)).to.not.equal(null);

    const step = await browser.get('/signin/two-factor');
    const done = await browser.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code: await generate({ secret: SECRET }) });
    expect(done.status).to.equal(303);
    expect(done.headers.location).to.equal('/projects/');
    expect((await browser.get('/projects/')).status).to.equal(200);
    expect((await User.findOne({ email: 'frank@example.org' }).lean())?.ssoLinked).to.equal(true);
  });

  it('links nothing when the second factor is not given, and asks again at the next sign-in', async () => {
    await withApp('gina@example.org');
    const first = agent();
    await oidcSignIn(first, 'gina');
    const step = await first.get('/signin/two-factor');
    const wrong = await first.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code: '000000' });
    expect(wrong.status).to.equal(400);
    expect((await User.findOne({ email: 'gina@example.org' }).lean())?.ssoLinked).to.equal(false);
    const again = await oidcSignIn(agent(), 'gina');
    expect(again.headers.location).to.equal('/signin/two-factor');
  });

  it('asks an account without a factor for its password once, then links, keeping the password', async () => {
    await buildUser('hank@example.org');
    const browser = agent();
    const res = await oidcSignIn(browser, 'hank');
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal('/signin/oidc/link');
    const page = await browser.get('/signin/oidc/link');
    expect(page.text).to.contain('hank@example.org');
    const bad = await browser.post('/signin/oidc/link').type('form').send({ _csrf: csrfOf(page.text), password: 'not the password' });
    expect(bad.status).to.equal(400);
    expect((await User.findOne({ email: 'hank@example.org' }).lean())?.ssoLinked).to.equal(false);
    const ok = await browser.post('/signin/oidc/link').type('form').send({ _csrf: csrfOf(bad.text), password: PASSWORD });
    expect(ok.status).to.equal(303);
    expect((await browser.get('/projects/')).status).to.equal(200);
    expect((await User.findOne({ email: 'hank@example.org' }).lean())?.ssoLinked).to.equal(true);
    expect(await authenticate('hank@example.org', PASSWORD)).to.not.equal(null);
    // Linked: the next single sign-on needs no password.
    expect((await oidcSignIn(agent(), 'hank')).headers.location).to.equal('/projects/');
  });

  it('still asks a linked account for its second factor at later sign-ins', async () => {
    const user = await withApp('ivy@example.org');
    await User.updateOne({ _id: user._id }, { $set: { ssoLinked: true } });
    expect((await oidcSignIn(agent(), 'ivy')).headers.location).to.equal('/signin/two-factor');
    expect((await User.findById(user._id).lean())?.totp).to.have.length(1);
  });

  it('lets an account single sign-on made close itself with a recent sign-in, without a reset link', async () => {
    const browser = agent();
    expect((await oidcSignIn(browser, 'newcomer')).headers.location).to.equal('/projects/');
    const page = await browser.get('/account/close');
    const res = await browser.post('/account/close').type('form').send({ _csrf: csrfOf(page.text), password: '' });
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('Account closed');
    expect(await User.exists({ email: 'newcomer@example.org' })).to.equal(null);
  });

  it('reads multi-factor authentication at the provider from the ID token’s amr, or an acr the operator names', () => {
    expect(providerDidMfa({ amr: ['pwd', 'otp'] }, [])).to.equal(true);
    expect(providerDidMfa({ amr: ['hwk'] }, [])).to.equal(true);
    expect(providerDidMfa({ amr: ['pwd'], acr: 'urn:example:mfa' }, ['urn:example:mfa'])).to.equal(true);
    expect(providerDidMfa({ amr: ['pwd'], acr: 'urn:example:password' }, ['urn:example:mfa'])).to.equal(false);
    expect(providerDidMfa({ amr: 'mfa' }, [])).to.equal(false);
  });
});
