/**
 * The check editor's helpers (server/pages/checks/editor-hints.ts, cron-preview.ts, check-quick.ts): the project's tags and the
 * time zones as datalists, the slug the name suggests, the zone still validated on save with its message beside the
 * field, the schedule in words with "next in …" in the preview, and the quick edit of name, tags and schedule.
 */
import { expect } from 'chai';
import { Check } from '../../../shared/models/check.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A signed-in read-write member of a project with two tagged checks. */
async function setUp() {
  const built = await buildProject({ name: 'helpers' });
  const user = await buildUser('rw@example.org');
  await join(built.project._id, user, 'rw');
  const agent = webAgent({}, () => new Date('2026-03-02T22:00:00Z'));
  await signIn(agent, user.email);
  const check = await buildCheck(built, { name: 'Nightly Backup (prod)', slug: '', tags: 'prod db' });
  await buildCheck(built, { name: 'web', tags: 'Alpha prod' });
  const base = `/projects/${built.project._id}/`;
  const one = `${base}checks/${check._id}/`;
  return { built, agent, check, base, one };
}

/** The form a new check's editor posts, with `fields` changed. */
function newCheckForm(_csrf: string, fields: Record<string, string>): Record<string, string> {
  return { _csrf, name: 'n', slug: '', tags: '', desc: '', kind: 'cron', timeout: '1', timeout_unit: '86400', schedule: '0 3 * * *', oncalendar: 'daily', tz: 'UTC', grace: '1', grace_unit: '3600', ...fields };
}

describe('check editor helpers', () => {
  it("offers the project's tags once each, in reading order, and every IANA zone, as datalists", async () => {
    const { agent, base } = await setUp();
    const page = (await agent.get(`${base}checks/new/`)).text;
    expect(page).to.contain('<input id="tags" name="tags" value="" list="tag-options"');
    const tags = /<datalist id="tag-options">(.*?)<\/datalist>/.exec(page)?.[1] ?? '';
    expect(tags).to.equal('<option value="Alpha"></option><option value="db"></option><option value="prod"></option>');
    const zones = /<datalist id="tz-options">(.*?)<\/datalist>/.exec(page)?.[1] ?? '';
    expect(zones).to.contain('<option value="Europe/Berlin"></option>').and.contain('<option value="America/Argentina/Buenos_Aires"></option>');
    expect(zones.match(/<option /g)?.length).to.be.greaterThan(400);
  });

  it('suggests the slug the API would make of the name, and none once the slug is it', async () => {
    const { agent, one } = await setUp();
    const page = (await agent.get(`${one}edit/`)).text;
    expect(page).to.contain('<p class="hint" id="slug-hint">Suggested from the name: <code id="slug-suggestion">nightly-backup-prod</code></p>');
    const web = await Check.findOneAndUpdate({ name: 'web' }, { $set: { slug: 'web' } }).lean();
    const again = (await agent.get(`/projects/${web!.projectId}/checks/${web!._id}/edit/`)).text;
    expect(again).to.contain('id="slug-hint" hidden>');
  });

  it('refuses an unknown time zone with its message beside the field, keeping what was typed', async () => {
    const { agent, base } = await setUp();
    const _csrf = csrfOf((await agent.get(`${base}checks/new/`)).text);
    const res = await agent.post(`${base}checks/`).type('form').send(newCheckForm(_csrf, { tz: 'Mars/Olympus_Mons' }));
    expect(res.status).to.equal(400);
    expect(res.text).to.match(/<p class="field-error" id="tz-error" aria-live="polite">tz [^<]+<\/p>/);
    expect(res.text).to.contain('value="Mars/Olympus_Mons" list="tz-options"').and.contain('aria-invalid="true"');
    expect(await Check.countDocuments({ name: 'n' })).to.equal(0);
  });

  it('accepts a zone from the picker', async () => {
    const { agent, base } = await setUp();
    const _csrf = csrfOf((await agent.get(`${base}checks/new/`)).text);
    const res = await agent.post(`${base}checks/`).type('form').send(newCheckForm(_csrf, { tz: 'Europe/Riga' }));
    expect(res.status).to.equal(303);
    expect(await Check.findOne({ name: 'n' }).lean()).to.include({ schedule: '0 3 * * *', tz: 'Europe/Riga' });
  });

  it('says the schedule in words with how far off its next run is, in the preview and on the editor', async () => {
    const { agent, base, one } = await setUp();
    const preview = await agent.get(`${base}cron-preview`).query({ schedule: '0 3 * * *', tz: 'UTC' });
    expect(preview.body).to.include({ words: 'At 03:00 every day', nextIn: 'in 5 hours' });
    const weekdays = await agent.get(`${base}cron-preview`).query({ schedule: 'Mon..Fri *-*-* 09:30', tz: 'UTC' });
    expect(weekdays.body).to.include({ words: 'At 09:30 on Monday to Friday', nextIn: 'in 11 hours' });
    const odd = await agent.get(`${base}cron-preview`).query({ schedule: '*/7 * * * *', tz: 'UTC' });
    expect(odd.body).to.include({ words: null, nextIn: 'in 7 minutes' });
    await Check.updateOne({ name: 'Nightly Backup (prod)' }, { $set: { kind: 'cron', schedule: '*/5 * * * *' } });
    expect((await agent.get(`${one}edit/`)).text).to.contain('<p id="preview-words" aria-live="polite">Every 5 minutes, next in 5 minutes</p>');
  });

  it('renames and retags from the check page without touching the rest of the check', async () => {
    const { agent, check, one } = await setUp();
    const page = (await agent.get(one)).text;
    expect(page).to.contain(`action="${one}quick"`).and.contain('<datalist id="quick-tag-options"><option value="Alpha"></option>');
    const res = await agent.post(`${one}quick`).type('form').send({ _csrf: csrfOf(page), name: 'nightly', tags: 'prod Alpha' });
    expect(res.status).to.equal(303);
    const stored = await Check.findById(check._id).lean();
    expect(stored).to.include({ name: 'nightly', tags: 'prod Alpha', timeout: check.timeout, grace: check.grace, kind: check.kind, desc: check.desc });
  });

  it("changes a cron check's schedule from the check page, keeping its zone; a simple check's period stays in the editor", async () => {
    const { agent, check, one } = await setUp();
    expect((await agent.get(one)).text).not.to.contain('id="quick-schedule"');
    await Check.updateOne({ _id: check._id }, { $set: { kind: 'cron', schedule: '0 3 * * *', tz: 'Europe/Riga' } });
    const page = (await agent.get(one)).text;
    expect(page).to.contain('<textarea id="quick-schedule" name="schedule" rows="1"').and.contain('>0 3 * * *</textarea>');
    const bad = await agent.post(`${one}quick`).type('form').send({ _csrf: csrfOf(page), name: check.name, tags: check.tags, schedule: '0 25 * * *' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.match(/<p class="field-error" id="quick-schedule-error">schedule [^<]+<\/p>/);
    expect(await Check.findById(check._id).lean()).to.include({ schedule: '0 3 * * *' });
    const res = await agent.post(`${one}quick`).type('form').send({ _csrf: csrfOf(page), name: check.name, tags: check.tags, schedule: 'Mon..Fri 09:30\r\nSat 12:00' });
    expect(res.status).to.equal(303);
    expect(await Check.findById(check._id).lean()).to.include({ kind: 'oncalendar', schedule: 'Mon..Fri 09:30\nSat 12:00', tz: 'Europe/Riga' });
  });

  it('refuses a quick edit with a bad name beside the field, changing nothing', async () => {
    const { agent, check, one } = await setUp();
    const _csrf = csrfOf((await agent.get(`${one}quick/`)).text);
    const res = await agent.post(`${one}quick`).type('form').send({ _csrf, name: 'x'.repeat(101), tags: 'new' });
    expect(res.status).to.equal(400);
    expect(res.text).to.match(/<p class="field-error" id="quick-name-error">name [^<]+<\/p>/);
    expect(await Check.findById(check._id).lean()).to.include({ name: check.name, tags: check.tags });
  });
});
