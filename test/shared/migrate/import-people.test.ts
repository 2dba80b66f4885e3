/** People imported from a real Healthchecks dump (docs/migrating.md, "People"): old passwords, TOTP, security keys, roles. */
import { expect } from 'chai';
import { generate } from 'otplib';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { Membership } from '../../../shared/models/membership.js';
import { csrfOf, signIn, webAgent } from '../../helpers/web.js';
import { BACKUPS, BOBS, importFixture, records, SECRETS } from '../../helpers/healthchecks-fixture.js';

const userOf = async (email: string) => (await User.findOne({ email }).lean<UserDoc>())!;

describe('import healthchecks: people', () => {
  beforeEach(() => importFixture());

  it('signs a user in with the old password (Django PBKDF2-SHA256), then keeps our argon2id hash instead', async () => {
    expect((await userOf('bob@example.org')).passwordHash).to.match(/^pbkdf2_sha256\$/);
    const res = await signIn(webAgent(), 'bob@example.org', SECRETS.passwords['bob@example.org']);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
    expect((await userOf('bob@example.org')).passwordHash).to.match(/^\$argon2id\$/);
    const again = await signIn(webAgent(), 'bob@example.org', SECRETS.passwords['bob@example.org']);
    expect(again.status).to.equal(303);
  });

  it('refuses a wrong password and keeps the old hash', async () => {
    const res = await signIn(webAgent(), 'bob@example.org', 'not-the-password');
    expect(res.status).to.not.equal(303);
    expect((await userOf('bob@example.org')).passwordHash).to.match(/^pbkdf2_sha256\$/);
  });

  it('signs a user in with the old password (Django argon2) and the code of the authenticator app set up there', async () => {
    const agent = webAgent();
    const first = await signIn(agent, 'alice@example.org', SECRETS.passwords['alice@example.org']);
    expect([first.status, first.headers.location]).to.deep.equal([303, '/signin/two-factor']);
    const secret = records('accounts.profile').find((p) => p.fields.user === 1)!.fields.totp as string;
    const step = await agent.get('/signin/two-factor');
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const res = await agent.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code });
    expect(res.status).to.equal(303);
    expect((await agent.get('/projects/')).status).to.equal(200);
  });

  it('keeps the security key: its credential id and COSE public key', async () => {
    const alice = await userOf('alice@example.org');
    expect(alice.webauthn.map((k) => [k.name, k._id])).to.deep.equal([['YubiKey', Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('base64url')]]);
    // A COSE EC2 key (a CBOR map) starts with 0xa5: five entries.
    expect(Buffer.from(alice.webauthn[0].publicKey ?? '', 'base64url')[0]).to.equal(0xa5);
  });

  it('keeps time zones, report and reminder settings, and roles', async () => {
    const alice = await userOf('alice@example.org');
    expect([alice.tz, alice.reportPeriod, alice.reminderPeriod]).to.deep.equal(['Europe/Riga', 'weekly', 'hourly']);
    expect(alice.reportDue).to.be.instanceOf(Date);
    const bob = await userOf('bob@example.org');
    const roles = await Membership.find({ userId: bob._id }).lean();
    expect(roles.map((m) => [m.projectId, m.role]).sort()).to.deep.equal([[BACKUPS, 'rw'], [BOBS, 'owner']].sort());
  });
});
