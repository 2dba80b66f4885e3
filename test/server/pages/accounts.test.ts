/** Sign-up (REGISTRATION_OPEN) and password change (server/pages/account/account.ts): nothing tells which addresses have accounts. */
import { expect } from 'chai';
import { User } from '../../../shared/models/user.js';
import { authenticate } from '../../../shared/services/users.js';
import { SIGN_UPS_PER_EMAIL, SIGN_UPS_PER_IP } from '../../../server/pages/kit/limits.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';

describe('sign-up and password change', () => {
  it('has no sign-up page while registration is closed (the default), and refuses its POST', async () => {
    const agent = webAgent();
    expect((await agent.get('/signup/')).status).to.equal(404);
    const _csrf = await tokenOf(agent);
    const res = await agent.post('/signup/').type('form').send({ _csrf, email: 'ann@example.org', password: PASSWORD });
    expect(res.status).to.equal(404);
    expect(await User.countDocuments()).to.equal(0);
  });

  it('signs up when open, answering the same whether or not the address had an account', async () => {
    await buildUser('taken@example.org');
    const agent = webAgent({ registrationOpen: true });
    const _csrf = csrfOf((await agent.get('/signup/')).text);
    const fresh = await agent.post('/signup/').type('form').send({ _csrf, email: 'new@example.org', password: PASSWORD });
    const taken = await agent.post('/signup/').type('form').send({ _csrf, email: 'taken@example.org', password: 'another password' });
    expect([fresh.status, fresh.headers.location]).to.deep.equal([303, '/signin/?next=%2Fprojects%2F']);
    expect([taken.status, taken.headers.location]).to.deep.equal([fresh.status, fresh.headers.location]);
    expect(await authenticate('new@example.org', PASSWORD)).not.to.equal(null);
    expect(await authenticate('taken@example.org', 'another password')).to.equal(null);
  });

  it(`limits sign-ups (an argon2 hash each): per client (${SIGN_UPS_PER_IP} in 10 minutes) and per address (${SIGN_UPS_PER_EMAIL})`, async () => {
    const agent = webAgent({ registrationOpen: true });
    const _csrf = csrfOf((await agent.get('/signup/')).text);
    const send = (email: string) => agent.post('/signup/').type('form').send({ _csrf, email, password: PASSWORD });
    const sameAddress: number[] = [];
    for (let i = 0; i <= SIGN_UPS_PER_EMAIL; i += 1) sameAddress.push((await send('ann@example.org')).status);
    expect(sameAddress).to.deep.equal([...Array<number>(SIGN_UPS_PER_EMAIL).fill(303), 429]);
    for (let i = SIGN_UPS_PER_EMAIL + 1; i < SIGN_UPS_PER_IP; i += 1) expect((await send(`user${i}@example.org`)).status).to.equal(303);
    const refused = await send('last@example.org');
    expect(refused.status).to.equal(429);
    expect(refused.text).to.contain('Too many attempts.');
    expect(await User.countDocuments({ email: 'last@example.org' })).to.equal(0);
  });

  it('shows a short password beside the form and creates nothing', async () => {
    const agent = webAgent({ registrationOpen: true });
    const _csrf = csrfOf((await agent.get('/signup/')).text);
    const res = await agent.post('/signup/').type('form').send({ _csrf, email: 'new@example.org', password: 'short' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('a password has at least 8 characters.');
    expect(await User.countDocuments()).to.equal(0);
  });

  it('changes the password only with the current one', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/account/')).text);
    const wrong = await agent.post('/account/password').type('form').send({ _csrf, current: 'not it', password: 'a new password' });
    expect(wrong.status).to.equal(400);
    expect(wrong.text).to.contain('the current password is wrong.');
    const right = await agent.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'a new password' });
    expect([right.status, right.headers.location]).to.deep.equal([303, '/account/']);
    expect(await authenticate('ann@example.org', 'a new password')).not.to.equal(null);
    expect(await authenticate('ann@example.org', PASSWORD)).to.equal(null);
  });

  it('signs out the other sessions of a user who changes the password, and keeps this one', async () => {
    await buildUser('ann@example.org');
    const laptop = webAgent();
    const phone = webAgent();
    await signIn(laptop, 'ann@example.org');
    await signIn(phone, 'ann@example.org');
    const _csrf = csrfOf((await laptop.get('/account/')).text);
    await laptop.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'a new password' });
    expect((await laptop.get('/projects/')).status).to.equal(200);
    expect((await phone.get('/projects/')).headers.location).to.equal('/signin/?next=%2Fprojects%2F');
  });

  it('never stores the password itself', async () => {
    await buildUser('ann@example.org');
    const stored = JSON.stringify(await User.findOne({ email: 'ann@example.org' }).lean());
    expect(stored).not.to.contain(PASSWORD);
    expect(stored).to.match(/\$argon2id\$/);
  });
});
