/**
 * Times where the user lives, light or dark (server/pages/account/account-display.ts, zone.ts): the profile's time zone and theme saved and refused, the
 * page's `?tz=` switcher, `<html data-theme>`.
 */
import { expect } from 'chai';
import { User } from '../../../shared/models/user.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A signed-in member of a project with one cron check in Asia/Tokyo that last pinged at a known moment. */
async function setUp() {
  const built = await buildProject();
  const user = await buildUser('me@example.org');
  await join(built.project._id, user, 'rw');
  const agent = webAgent();
  await signIn(agent, user.email);
  const lastPing = new Date('2026-07-01T12:00:00Z');
  const check = await buildCheck(built, { name: 'nightly', kind: 'cron', schedule: '0 3 * * *', tz: 'Asia/Tokyo', status: 'up', lastPing, nPings: 1 });
  const _csrf = csrfOf((await agent.get('/account/')).text);
  return { user, agent, _csrf, one: `/projects/${built.project._id}/checks/${check._id}/` };
}

describe('time zone and theme', () => {
  it('saves a time zone from the list and shows times in it', async () => {
    const { user, agent, _csrf, one } = await setUp();
    const account = (await agent.get('/account/')).text;
    expect(account).to.contain('<option selected>UTC</option>').and.contain('<option >Europe/Riga</option>');
    const res = await agent.post('/account/display').type('form').send({ _csrf, tz: 'Europe/Riga' });
    expect(res.status).to.equal(303);
    expect(await User.findById(user._id).lean()).to.include({ tz: 'Europe/Riga' });
    expect((await agent.get(one)).text).to.contain('<dd id="last-ping">2026-07-01 15:00:00 EEST</dd>');
  });

  it('refuses an unknown zone with a message beside the field, and a form without its token', async () => {
    const { user, agent, _csrf } = await setUp();
    const res = await agent.post('/account/display').type('form').send({ _csrf, tz: 'Mars/<b>Base' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('<p class="error" role="alert" id="tz-error">“Mars/&lt;b&gt;Base” is not a time zone of the tz database');
    expect(res.text).to.contain('aria-describedby="tz-error"');
    expect((await agent.post('/account/display').type('form').send({ tz: 'Europe/Riga' })).status).to.equal(403);
    expect(await User.findById(user._id).lean()).to.include({ tz: 'UTC' });
  });

  it('switches a page to UTC, the viewer\'s zone or the check\'s with ?tz=, marking the current one', async () => {
    const { user, agent, one } = await setUp();
    await User.updateOne({ _id: user._id }, { $set: { tz: 'America/New_York' } });
    const mine = (await agent.get(one)).text;
    expect(mine).to.contain('2026-07-01 08:00:00 EDT').and.match(/id="zone-mine" aria-current="true"/);
    const check = (await agent.get(`${one}?tz=check`)).text;
    expect(check).to.contain('2026-07-01 21:00:00 JST').and.match(/id="zone-check" aria-current="true"/);
    expect((await agent.get(`${one}?tz=utc`)).text).to.contain('2026-07-01 12:00:00 UTC');
    expect((await agent.get(`${one}?tz=Europe/Riga`)).text).to.contain('2026-07-01 15:00:00 EEST');
    // An unknown zone is ignored: the profile's shows.
    const unknown = await agent.get(`${one}?tz=Nowhere/Land`);
    expect(unknown.status).to.equal(200);
    expect(unknown.text).to.contain('2026-07-01 08:00:00 EDT');
  });

  it('saves the theme and puts it on every page; signed-out pages follow the system', async () => {
    const { user, agent, _csrf, one } = await setUp();
    expect((await agent.get(one)).text).to.contain('<html lang="en" data-theme="system">');
    const res = await agent.post('/account/theme').type('form').send({ _csrf, theme: 'dark', next: one });
    expect(res.headers.location).to.equal(one);
    expect(await User.findById(user._id).lean()).to.include({ theme: 'dark' });
    expect((await agent.get(one)).text).to.contain('<html lang="en" data-theme="dark">');
    expect((await agent.post('/account/theme').type('form').send({ _csrf, theme: 'pink' })).status).to.equal(400);
    const away = await agent.post('/account/theme').type('form').send({ _csrf, theme: 'light', next: '//evil.example/' });
    expect(away.headers.location).to.equal('/projects/');
    const signedOut = (await webAgent().get('/signin/')).text;
    expect(signedOut).to.contain('data-theme="system"').and.not.contain('theme-select');
  });
});
