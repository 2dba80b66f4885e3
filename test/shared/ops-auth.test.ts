import { expect } from 'chai';
import { basicCredentialOf, operatorAllowed } from '../../shared/ops-auth.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const SECRETS = { admin: { user: 'ops', password: 'pa:ss' }, metricsToken: 'scrape-token' };

describe('shared/ops-auth: operator credentials', () => {
  it('reads a Basic credential whose password contains a colon', () => {
    expect(basicCredentialOf(basic('ops', 'pa:ss'))).to.deep.equal({ user: 'ops', password: 'pa:ss' });
  });

  it('reads no credential from a malformed or non-Basic header', () => {
    expect([basicCredentialOf(undefined), basicCredentialOf('Basic b3Bz'), basicCredentialOf('Bearer x')]).to.deep.equal([null, null, null]);
  });

  it('allows the exact admin credential only', () => {
    expect(operatorAllowed(basic('ops', 'pa:ss'), SECRETS, false)).to.equal(true);
    expect(operatorAllowed(basic('ops', 'pa:s'), SECRETS, false)).to.equal(false);
    expect(operatorAllowed(basic('Ops', 'pa:ss'), SECRETS, false)).to.equal(false);
  });

  it('allows the metrics token only where Bearer is accepted', () => {
    expect(operatorAllowed('Bearer scrape-token', SECRETS, true)).to.equal(true);
    expect(operatorAllowed('Bearer scrape-token', SECRETS, false)).to.equal(false);
    expect(operatorAllowed('Bearer scrape-toke', SECRETS, true)).to.equal(false);
  });

  it('allows nothing when nothing is configured', () => {
    const none = { admin: null, metricsToken: null };
    expect([operatorAllowed(basic('', ''), none, true), operatorAllowed('Bearer ', none, true)]).to.deep.equal([false, false]);
  });
});
