/** Single sign-on over HTTP (server/pages/account/sso.ts, shared/config-sso.ts; docs/web-app.md, "Single sign-on"): refusals, the proxy's user header, password sign-in off, settings. */
import { expect } from 'chai';
import { loadConfig } from '../../../shared/config.js';
import { User } from '../../../shared/models/user.js';
import { freePort } from '../../helpers/services.js';
import { OIDC_CLIENT, startOidcProvider, type TestProvider } from '../../helpers/oidc-provider.js';
import { buildUser, csrfOf, PASSWORD, webAgent } from '../../helpers/web.js';

const NO_SSO = { oidc: null, remoteUserHeader: null, passwordSignIn: true };

describe('single sign-on', () => {
  describe('OpenID Connect refusals', () => {
    let provider: TestProvider;
    let issuer: string;
    before(async () => {
      const port = await freePort();
      issuer = `http://127.0.0.1:${port}`;
      provider = await startOidcProvider(port, 'http://localhost:8000/signin/oidc/callback');
    });
    after(() => provider?.close());
    const agent = () => webAgent({ sso: { ...NO_SSO, oidc: { issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, allowedDomains: [], label: 'SSO' } } });

    it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
      const res = await agent().get('/signin/oidc?next=/projects/');
      expect(res.status).to.equal(303);
      const to = new URL(res.headers.location);
      expect(`${to.origin}`).to.equal(issuer);
      expect(to.searchParams.get('code_challenge_method')).to.equal('S256');
      for (const name of ['code_challenge', 'state', 'nonce']) expect(to.searchParams.get(name)).to.have.length.greaterThan(20);
      expect(to.searchParams.get('redirect_uri')).to.equal('http://localhost:8000/signin/oidc/callback');
    });

    it('refuses a callback with a wrong state, and one not started in this session, signing no one in', async () => {
      const browser = agent();
      await browser.get('/signin/oidc');
      const wrong = await browser.get('/signin/oidc/callback?code=abc&state=not-the-state');
      expect(wrong.status).to.equal(400);
      expect(wrong.text).to.contain('Single sign-on refused: the identity provider’s answer did not check out');
      const fresh = await agent().get('/signin/oidc/callback?code=abc&state=x');
      expect(fresh.status).to.equal(400);
      expect(fresh.text).to.contain('this sign-in has expired or was not started here');
      expect((await browser.get('/projects/')).status).to.equal(303);
    });
  });

  it('signs in the person a trusted proxy names in REMOTE_USER_HEADER, making the account once', async () => {
    const agent = webAgent({ trustProxy: 1, sso: { ...NO_SSO, remoteUserHeader: 'x-forwarded-email' } });
    expect((await agent.get('/projects/')).status).to.equal(303);
    const res = await agent.get('/projects/').set('X-Forwarded-Email', 'Proxy.User@Example.org');
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('proxy.user@example.org');
    await agent.get('/projects/').set('X-Forwarded-Email', 'proxy.user@example.org');
    expect(await User.countDocuments({ email: 'proxy.user@example.org' })).to.equal(1);
    const bad = await webAgent({ trustProxy: 1, sso: { ...NO_SSO, remoteUserHeader: 'x-forwarded-email' } }).get('/projects/').set('X-Forwarded-Email', 'not an address');
    expect(bad.status).to.equal(400);
  });

  it('turns password sign-in (and sign-up, reset and mailed links) off beside single sign-on', async () => {
    await buildUser('ann@example.org');
    const oidc = { issuer: 'https://sso.example.org', clientId: 'x', clientSecret: 'y', allowedDomains: [], label: 'Company SSO' };
    const agent = webAgent({ trustProxy: 1, registrationOpen: true, sso: { oidc, remoteUserHeader: 'x-forwarded-email', passwordSignIn: false } });
    const page = await agent.get('/signin/');
    expect(page.text).to.contain('Company SSO').and.not.contain('id="password"');
    for (const path of ['/signup/', '/signin/reset/', '/signin/link/']) expect((await agent.get(path)).status, path).to.equal(404);
    // A form token of this session: from a page shown to the person the proxy names.
    const _csrf = csrfOf((await agent.get('/projects/').set('X-Forwarded-Email', 'bob@example.org')).text);
    const res = await agent.post('/signin/').type('form').send({ _csrf, email: 'ann@example.org', password: PASSWORD });
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('Password sign-in is turned off on this site');
  });

  it('refuses settings that cannot work', () => {
    const base = { NODE_ENV: 'test', SECRET_KEY: 'k' };
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.org' })).to.throw('OIDC_ISSUER needs OIDC_CLIENT_ID');
    expect(() => loadConfig({ ...base, REMOTE_USER_HEADER: 'X-Email' })).to.throw('REMOTE_USER_HEADER needs TRUST_PROXY');
    expect(() => loadConfig({ ...base, PASSWORD_SIGNIN: 'false' })).to.throw('PASSWORD_SIGNIN=false needs OIDC_ISSUER or REMOTE_USER_HEADER');
    expect(loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.org', OIDC_CLIENT_ID: 'id', OIDC_ALLOWED_DOMAINS: 'Example.org, corp.example', PASSWORD_SIGNIN: 'false' }).sso).to.deep.include({
      passwordSignIn: false,
      oidc: { issuer: 'https://sso.example.org', clientId: 'id', clientSecret: '', allowedDomains: ['example.org', 'corp.example'], label: 'Sign in with single sign-on', mfaAcr: [] },
    });
  });
});
