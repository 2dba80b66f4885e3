/** Changing an account's address (server/pages/account/email-change.ts), confirmed from the new address; mail caught by a real SMTP receiver. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { User } from '../../../shared/models/user.js';
import { LINK_TTL_MS } from '../../../shared/services/account-links.js';
import { MAILS_PER_EMAIL } from '../../../server/pages/kit/limits.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../../helpers/mailbox.js';

describe('email change', () => {
  const box = useMailbox();
  const agent = (clock?: () => Date) => webAgent({ smtpUrl: box.smtp.url }, clock);

  /** Ann, signed in, asks to move to `email`. */
  async function ask(email: string, password = PASSWORD): Promise<{ ann: supertest.Agent; res: supertest.Response }> {
    const ann = agent();
    await signIn(ann, 'ann@example.org');
    const _csrf = csrfOf((await ann.get('/account/')).text);
    return { ann, res: await ann.post('/account/email').type('form').send({ _csrf, email, password }) };
  }
  async function follow(client: supertest.Agent, path: string): Promise<supertest.Response> {
    const page = await client.get(path);
    const _csrf = page.status === 200 ? csrfOf(page.text) : await tokenOf(client);
    return client.post(path).type('form').send({ _csrf });
  }
  const emailOf = async () => (await User.findOne({}).lean())?.email;

  beforeEach(() => buildUser('ann@example.org'));

  it('mails a link to the new address, keeps the old one until it is opened, then tells the old address', async () => {
    const { ann, res } = await ask('ann@new.example');
    expect([res.status, res.headers.location]).to.deep.equal([303, '/account/']);
    expect((await ann.get('/account/')).text).to.contain('We emailed a link to ann@new.example');
    const mail = await mailTo(box, 'ann@new.example', 'Confirm your new address');
    expect(mail.mail.html).to.contain('Confirm this address');
    expect(await emailOf()).to.equal('ann@example.org');
    const done = await follow(ann, linkPathIn(mail));
    expect([done.status, done.headers.location]).to.deep.equal([303, '/account/']);
    expect(await emailOf()).to.equal('ann@new.example');
    expect((await ann.get('/account/')).text).to.contain('<strong id="account-email">ann@new.example</strong>');
    expect((await mailTo(box, 'ann@example.org', 'changed')).mail.text).to.contain('is now ann@new.example');
    expect((await signIn(agent(), 'ann@new.example')).status).to.equal(303);
  });

  it('answers the same for an address that has an account, which gets a notice without a link', async () => {
    await buildUser('bob@example.org');
    const { ann, res } = await ask('bob@example.org');
    expect([res.status, res.headers.location]).to.deep.equal([303, '/account/']);
    expect((await ann.get('/account/')).text).to.contain('We emailed a link to bob@example.org');
    const notice = await mailTo(box, 'bob@example.org', 'refused');
    expect(notice.mail.text).not.to.match(/https?:/);
    expect(await User.countDocuments({ email: 'ann@example.org' })).to.equal(1);
  });

  it('refuses a wrong password and a malformed address with 400, mailing nothing', async () => {
    const wrong = (await ask('ann@new.example', 'not the password')).res;
    expect([wrong.status, wrong.text.includes('The current password is wrong.')]).to.deep.equal([400, true]);
    expect((await ask('nonsense')).res.status).to.equal(400);
    expect(box.smtp.messages).to.have.length(0);
  });

  it('refuses a used, expired or forged link, changing nothing more', async () => {
    const { ann } = await ask('ann@new.example');
    const path = linkPathIn(await mailTo(box, 'ann@new.example'));
    const later = await follow(agent(() => new Date(Date.now() + LINK_TTL_MS.email + 1000)), path);
    expect([later.status, later.text.includes('This link has expired')]).to.deep.equal([410, true]);
    expect((await follow(agent(), `${path}x`)).status).to.equal(404);
    expect(await emailOf()).to.equal('ann@example.org');
    await follow(ann, path);
    const used = await follow(ann, path);
    expect([used.status, await emailOf()]).to.deep.equal([410, 'ann@new.example']);
  });

  it('refuses with 409 when the new address got an account meanwhile', async () => {
    await ask('ann@new.example');
    const path = linkPathIn(await mailTo(box, 'ann@new.example'));
    await buildUser('ann@new.example');
    const res = await follow(agent(), path);
    expect([res.status, await emailOf()]).to.deep.equal([409, 'ann@example.org']);
  });

  it(`answers 429 past ${MAILS_PER_EMAIL} confirmations per address an hour`, async () => {
    for (let i = 0; i < MAILS_PER_EMAIL; i += 1) expect((await ask('ann@new.example')).res.status).to.equal(303);
    const refused = (await ask('ann@new.example')).res;
    expect([refused.status, refused.text.includes('Too many confirmations')]).to.deep.equal([429, true]);
  });
});
