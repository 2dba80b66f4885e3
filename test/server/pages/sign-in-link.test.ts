/** Sign-in by a mailed link (server/pages/account/recovery.ts), mail caught by a real SMTP receiver. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { User } from '../../../shared/models/user.js';
import { LINK_TTL_MS } from '../../../shared/services/account-links.js';
import { MAILS_PER_EMAIL } from '../../../server/pages/kit/limits.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../../helpers/mailbox.js';

describe('sign-in by link', () => {
  const box = useMailbox();
  const agent = (clock?: () => Date) => webAgent({ smtpUrl: box.smtp.url }, clock);

  async function ask(email: string): Promise<supertest.Response> {
    const client = agent();
    const _csrf = await tokenOf(client, '/signin/link/');
    return client.post('/signin/link/').type('form').send({ _csrf, email });
  }
  async function linkPath(email: string): Promise<string> {
    await ask(email);
    return linkPathIn(await mailTo(box, email, 'sign-in link'));
  }
  /** Opens the link's page and presses its button, as a person does. */
  async function follow(client: supertest.Agent, path: string): Promise<supertest.Response> {
    const page = await client.get(path);
    const _csrf = page.status === 200 ? csrfOf(page.text) : await tokenOf(client);
    return client.post(path).type('form').send({ _csrf });
  }

  it('is offered on the sign-in page and answers the same for an unknown address', async () => {
    expect((await agent().get('/signin/')).text).to.contain('<a href="/signin/link/">Email me a sign-in link</a>');
    await buildUser('ann@example.org');
    const [unknown, known] = [await ask('bob@example.org'), await ask('ann@example.org')];
    expect(known.text.replace(/ann@/g, 'bob@').replace(/value="[^"]+"/g, '')).to.equal(unknown.text.replace(/value="[^"]+"/g, ''));
    await mailTo(box, 'ann@example.org');
    expect(box.smtp.messages.map((m) => m.to)).to.deep.equal([['ann@example.org']]);
  });

  it('signs in from the link once; opening the page alone uses nothing', async () => {
    await buildUser('ann@example.org');
    const path = await linkPath('ann@example.org');
    const scanner = await agent().get(path);
    expect([scanner.status, scanner.text.includes('Sign in as ann@example.org?')]).to.deep.equal([200, true]);
    const ann = agent();
    const res = await follow(ann, path);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
    expect((await ann.get('/projects/')).text).to.contain('ann@example.org');
    const again = await follow(agent(), path);
    expect([again.status, again.text.includes('This link has already been used')]).to.deep.equal([410, true]);
  });

  it('expires after 15 minutes: 410, nobody signed in', async () => {
    await buildUser('ann@example.org');
    const path = await linkPath('ann@example.org');
    const later = agent(() => new Date(Date.now() + LINK_TTL_MS.signin + 1000));
    const res = await follow(later, path);
    expect([res.status, res.text.includes('This link has expired')]).to.deep.equal([410, true]);
    expect((await later.get('/projects/')).status).to.equal(303);
  });

  it('refuses a forged link with 404, and a link sent before a password change with 410', async () => {
    await buildUser('ann@example.org');
    const path = await linkPath('ann@example.org');
    const forged = await follow(agent(), path.replace(/\.[\w-]{4}/, '.AAAA'));
    expect([forged.status, forged.text.includes('This link is not valid')]).to.deep.equal([404, true]);
    const ann = agent();
    await signIn(ann, 'ann@example.org');
    const _csrf = csrfOf((await ann.get('/account/')).text);
    await ann.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'changed by hand' });
    expect((await follow(agent(), path)).status).to.equal(410);
  });

  it('asks a user with a second factor for it after the link, as after a password', async () => {
    await buildUser('ann@example.org');
    await User.updateOne({ email: 'ann@example.org' }, { $set: { totp: [{ _id: 'app', name: 'Phone', secret: 'JBSWY3DPEHPK3PXP', created: new Date() }] } });
    const ann = agent();
    const res = await follow(ann, await linkPath('ann@example.org'));
    expect([res.status, res.headers.location]).to.deep.equal([303, '/signin/two-factor']);
    expect((await ann.get('/projects/')).status).to.equal(303);
  });

  it(`answers 429 past ${MAILS_PER_EMAIL} links per address an hour`, async () => {
    for (let i = 0; i < MAILS_PER_EMAIL; i += 1) expect((await ask('ann@example.org')).status).to.equal(200);
    expect((await ask('ANN@example.org')).status).to.equal(429);
  });
});
