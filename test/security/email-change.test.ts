/**
 * The account's address is a credential, from outside with a real SMTP receiver: changing it needs a recent
 * confirmation with the second factor, signs out the other sessions, and mails the old address a notice whose link
 * undoes the change for 7 days.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { generate } from 'otplib';
import { User } from '../../shared/models/user.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../helpers/mailbox.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const DAY_MS = 24 * 3600_000;

describe('security: changing the account’s address', () => {
  const box = useMailbox();
  let now: number;
  const clock = () => new Date(now);
  const agent = () => webAgent({ smtpUrl: box.smtp.url }, clock);
  beforeEach(() => {
    now = Date.now();
  });

  async function ask(web: supertest.Agent, email: string, fields: Record<string, string> = {}): Promise<supertest.Response> {
    const _csrf = csrfOf((await web.get('/account/')).text);
    return web.post('/account/email').type('form').send({ _csrf, email, password: PASSWORD, ...fields });
  }
  async function follow(web: supertest.Agent, path: string): Promise<supertest.Response> {
    const page = await web.get(path);
    const _csrf = page.status === 200 ? csrfOf(page.text) : await tokenOf(web);
    return web.post(path).type('form').send({ _csrf });
  }

  it('refuses a change with the password alone from an account with a second factor, well after its sign-in', async () => {
    const user = await buildUser('ann@example.org');
    await User.updateOne({ _id: user._id }, { $set: { totp: [{ _id: 'app', name: 'Phone', secret: SECRET, created: new Date() }] } });
    const web = agent();
    const _csrf = await tokenOf(web);
    await web.post('/signin/').type('form').send({ _csrf, email: 'ann@example.org', password: PASSWORD });
    const step = await web.get('/signin/two-factor');
    expect((await web.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code: await generate({ secret: SECRET }) })).status).to.equal(303);
    now += DAY_MS;
    const res = await ask(web, 'thief@example.net');
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('second factor');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(box.smtp.messages.filter((m) => m.to.includes('thief@example.net'))).to.have.length(0);
  });

  it('signs out the other sessions once the new address is confirmed', async () => {
    await buildUser('bob@example.org');
    const mine = agent();
    const other = agent();
    await signIn(mine, 'bob@example.org');
    await signIn(other, 'bob@example.org');
    expect((await ask(mine, 'bob@new.example')).status).to.equal(303);
    const done = await follow(mine, linkPathIn(await mailTo(box, 'bob@new.example', 'Confirm your new address')));
    expect(done.status).to.equal(303);
    expect((await mine.get('/account/')).status).to.equal(200);
    expect((await other.get('/account/')).status).to.equal(303);
  });

  it('mails the old address a link that undoes the change for 7 days, then no longer', async () => {
    await buildUser('cy@example.org');
    await buildUser('dee@example.org');
    for (const [old, next, after] of [['cy@example.org', 'cy@new.example', 6 * DAY_MS], ['dee@example.org', 'dee@new.example', 8 * DAY_MS]] as const) {
      const web = agent();
      await signIn(web, old);
      await ask(web, next);
      await follow(web, linkPathIn(await mailTo(box, next, 'Confirm your new address')));
      const notice = await mailTo(box, old, 'Your address was changed');
      const undo = linkPathIn(notice);
      now += after;
      const res = await follow(agent(), undo);
      if (after < 7 * DAY_MS) {
        expect(res.status).to.be.oneOf([200, 303]);
        expect(await User.exists({ email: old })).to.not.equal(null);
        expect((await web.get('/account/')).status).to.equal(303);
      } else {
        expect(res.status).to.equal(410);
        expect(await User.exists({ email: next })).to.not.equal(null);
      }
      now -= after;
    }
  });
});
