/** Password reset by a mailed link (server/pages/account/recovery.ts, shared/services/account-links.ts), mail caught by a real SMTP receiver. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { User } from '../../../shared/models/user.js';
import { LINK_TTL_MS } from '../../../shared/services/account-links.js';
import { MAILS_PER_EMAIL, MAILS_PER_IP } from '../../../server/pages/kit/limits.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../../helpers/mailbox.js';
import { waitFor } from '../../helpers/poll.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('password reset', () => {
  const box = useMailbox();
  const agent = (clock?: () => Date) => webAgent({ smtpUrl: box.smtp.url }, clock);

  /** Asks for a reset link for `email` from a new agent. */
  async function ask(email: string, client = agent()): Promise<supertest.Response> {
    const _csrf = await tokenOf(client, '/signin/reset/');
    return client.post('/signin/reset/').type('form').send({ _csrf, email });
  }
  /** The path of the reset link mailed to `email`. */
  async function resetPath(email: string): Promise<string> {
    await ask(email);
    return linkPathIn(await mailTo(box, email, 'Reset'));
  }
  /** Sets `password` through the link at `path` from `client`. */
  async function setPassword(client: supertest.Agent, path: string, password = NEW_PASSWORD): Promise<supertest.Response> {
    const _csrf = await tokenOf(client);
    return client.post(path).type('form').send({ _csrf, password });
  }

  it('is offered on the sign-in page', async () => {
    expect((await agent().get('/signin/')).text).to.contain('<a href="/signin/reset/">Forgot your password?</a>');
  });

  it('answers the same whether or not the address has an account, and mails only an account, text and HTML', async () => {
    await buildUser('ann@example.org');
    const unknown = await ask('bob@example.org');
    const known = await ask('ann@example.org');
    expect([unknown.status, known.status]).to.deep.equal([200, 200]);
    expect(known.text.replace(/ann@/g, 'bob@').replace(/value="[^"]+"/g, '')).to.equal(unknown.text.replace(/value="[^"]+"/g, ''));
    expect(known.text).to.contain('If <strong>ann@example.org</strong> has an account, a link is on its way to it.');
    const mail = await mailTo(box, 'ann@example.org', 'Reset your password');
    expect(linkPathIn(mail)).to.match(/^\/signin\/reset\/[\w-]+\.[\w-]+$/);
    expect(mail.mail.html).to.contain(`href="http://localhost:8000${linkPathIn(mail)}"`);
    expect(box.smtp.messages.map((m) => m.to)).to.deep.equal([['ann@example.org']]);
  });

  it('sets a new password from the link, signs in, and signs out the other sessions', async () => {
    await buildUser('ann@example.org');
    const other = agent();
    await signIn(other, 'ann@example.org');
    const path = await resetPath('ann@example.org');
    const page = await agent().get(path);
    expect([page.status, page.text.includes('Set a new password')]).to.deep.equal([200, true]);
    const person = agent();
    const res = await setPassword(person, path);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
    expect((await person.get('/projects/')).text).to.contain('ann@example.org');
    expect((await other.get('/projects/')).headers.location).to.equal('/signin/?next=%2Fprojects%2F');
    expect((await signIn(agent(), 'ann@example.org', PASSWORD)).status).to.equal(400);
    expect((await signIn(agent(), 'ann@example.org', NEW_PASSWORD)).status).to.equal(303);
  });

  it('asks a user with a second factor for it after the reset, the password changed', async () => {
    await buildUser('ann@example.org');
    await User.updateOne({ email: 'ann@example.org' }, { $set: { totp: [{ _id: 'app', name: 'Phone', secret: 'JBSWY3DPEHPK3PXP', created: new Date() }] } });
    const person = agent();
    const res = await setPassword(person, await resetPath('ann@example.org'));
    expect([res.status, res.headers.location]).to.deep.equal([303, '/signin/two-factor']);
    expect((await person.get('/projects/')).status).to.equal(303);
    expect((await signIn(agent(), 'ann@example.org', NEW_PASSWORD)).headers.location).to.equal('/signin/two-factor');
  });

  it('works once: a used link gets a 410 page and changes nothing', async () => {
    await buildUser('ann@example.org');
    const path = await resetPath('ann@example.org');
    await setPassword(agent(), path);
    const again = await setPassword(agent(), path, 'yet another password');
    expect(again.status).to.equal(410);
    expect(again.text).to.contain('This link has already been used');
    expect((await signIn(agent(), 'ann@example.org', NEW_PASSWORD)).status).to.equal(303);
  });

  it('expires after an hour: 410, password unchanged', async () => {
    await buildUser('ann@example.org');
    const path = await resetPath('ann@example.org');
    const later = agent(() => new Date(Date.now() + LINK_TTL_MS.reset + 1000));
    expect((await later.get(path)).status).to.equal(410);
    const res = await setPassword(later, path);
    expect([res.status, res.text.includes('This link has expired')]).to.deep.equal([410, true]);
    expect((await signIn(agent(), 'ann@example.org', PASSWORD)).status).to.equal(303);
  });

  it('refuses a forged link and a sign-in link with 404, changing nothing', async () => {
    await buildUser('ann@example.org');
    const path = await resetPath('ann@example.org');
    const forged = `${path.slice(0, -2)}${path.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await setPassword(agent(), forged)).status).to.equal(404);
    expect((await setPassword(agent(), '/signin/reset/nonsense')).status).to.equal(404);
    const client = agent();
    const _csrf = await tokenOf(client, '/signin/link/');
    await client.post('/signin/link/').type('form').send({ _csrf, email: 'ann@example.org' });
    const signInPath = linkPathIn(await mailTo(box, 'ann@example.org', 'sign-in'));
    expect((await setPassword(agent(), signInPath.replace('/link/', '/reset/'))).status).to.equal(404);
    expect((await signIn(agent(), 'ann@example.org', PASSWORD)).status).to.equal(303);
  });

  it('is voided by a password change made after it was sent', async () => {
    await buildUser('ann@example.org');
    const path = await resetPath('ann@example.org');
    const ann = agent();
    await signIn(ann, 'ann@example.org');
    const _csrf = csrfOf((await ann.get('/account/')).text);
    await ann.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'changed by hand' });
    const res = await setPassword(agent(), path);
    expect([res.status, res.text.includes('This link no longer works')]).to.deep.equal([410, true]);
    expect((await signIn(agent(), 'ann@example.org', 'changed by hand')).status).to.equal(303);
  });

  it('refuses a short password with 400 and keeps the link usable', async () => {
    await buildUser('ann@example.org');
    const path = await resetPath('ann@example.org');
    const short = await setPassword(agent(), path, 'short');
    expect([short.status, short.text.includes('a password has at least 8 characters')]).to.deep.equal([400, true]);
    expect((await setPassword(agent(), path)).status).to.equal(303);
  });

  it('answers malformed links of every kind with a 4xx page, never a 500', async () => {
    const paths = ['/signin/reset/%ZZ', '/signin/link/a.b.c', '/account/email/..', '/integrations/confirm/a.b.c.d', '/integrations/unsubscribe/%E0%A4%A'];
    const statuses = await Promise.all(paths.map(async (path) => (await agent().get(path)).status));
    const posted = (await agent().post('/integrations/unsubscribe/x.eA.0.forged')).status;
    expect([...statuses, posted].every((status) => status >= 400 && status < 500), String(statuses)).to.equal(true);
  });

  it('refuses a malformed address with 400 and mails nothing', async () => {
    const res = await ask('not an address');
    expect([res.status, res.text.includes('Enter a valid email address.')]).to.deep.equal([400, true]);
  });

  it(`answers 429 past ${MAILS_PER_EMAIL} requests per address and ${MAILS_PER_IP} per client an hour`, async () => {
    await buildUser('ann@example.org');
    for (let i = 0; i < MAILS_PER_EMAIL; i += 1) expect((await ask('ann@example.org')).status).to.equal(200);
    const refused = await ask('ann@example.org');
    expect([refused.status, refused.text.includes('Too many links')]).to.deep.equal([429, true]);
    for (let i = MAILS_PER_EMAIL + 1; i < MAILS_PER_IP; i += 1) expect((await ask(`u${i}@example.org`)).status).to.equal(200);
    expect((await ask('fresh@example.org')).status).to.equal(429);
    const toAnn = () => box.smtp.messages.filter((m) => m.to.includes('ann@example.org'));
    await waitFor(`${MAILS_PER_EMAIL} mails to ann`, () => Promise.resolve(toAnn().length >= MAILS_PER_EMAIL));
    expect(toAnn()).to.have.length(MAILS_PER_EMAIL);
  });
});
