/** Security keys over HTTP (server/pages/account/security-keys.ts; docs/web-app.md, "Security keys and passkeys"): the options' answers to a script. */
import { expect } from 'chai';
import { SUDO_MS } from '../../../server/pages/account/sessions.js';
import { buildUser, csrfOf, signIn, webAgent } from '../../helpers/web.js';

describe('security key options', () => {
  it('answers a lapsed sudo with JSON 401 naming the confirm page, not a redirect to an HTML page the script cannot read', async () => {
    let nowMs = Date.now();
    const agent = webAgent({}, () => new Date(nowMs));
    await buildUser('ann@example.org');
    await signIn(agent, 'ann@example.org');
    const page = await agent.get('/account/two-factor/webauthn');
    expect(page.status).to.equal(200);
    const fresh = await agent.post('/account/two-factor/webauthn/options').set('x-csrf-token', csrfOf(page.text));
    expect([fresh.status, typeof fresh.body.challenge]).to.deep.equal([200, 'string']);
    nowMs += SUDO_MS + 1000;
    const lapsed = await agent.post('/account/two-factor/webauthn/options').set('x-csrf-token', csrfOf(page.text));
    expect(lapsed.status).to.equal(401);
    expect(lapsed.body).to.deep.equal({
      error: 'confirm your password again to add a security key',
      confirm: `/account/confirm?next=${encodeURIComponent('/account/two-factor/webauthn')}`,
    });
  });
});
