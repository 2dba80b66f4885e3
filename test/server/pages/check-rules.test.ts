/**
 * Alerting rules in the check editor and on the check page (server/pages/checks/rule-form.ts; docs/alerting-rules.md, "In the browser"): saved through the API's
 * schema and service, the API's message beside a bad field, shown on the check page, and each flip's marks listed.
 */
import { expect } from 'chai';
import { Check } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

const SIMPLE = { name: 'backup', kind: 'simple', timeout: '1', timeout_unit: '86400', grace: '1', grace_unit: '3600' };

/** A project with a check, its parent, and a read-write member signed in on the check's editor. */
async function setUp() {
  const built = await buildProject();
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const parent = await buildCheck(built, { name: 'database' });
  const check = await buildCheck(built, { name: 'backup' });
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  const one = `/projects/${built.project._id}/checks/${check._id}/`;
  const editor = await agent.get(`${one}edit/`);
  return { built, agent, parent, check, one, editor: editor.text, _csrf: csrfOf(editor.text) };
}

describe('alerting rules in the browser', () => {
  it('saves every rule through the API service and shows them on the check page', async () => {
    const { agent, parent, check, one, editor, _csrf } = await setUp();
    expect(editor).to.contain(`<option value="${parent._id}" >database</option>`).and.not.contain(`<option value="${check._id}"`);
    const rules = { fail_threshold: '3', fail_window: '600', min_duration: '10', min_interval: '60', notify_late: '1', repeat_every: '3600', depends_on: parent._id };
    const res = await agent.post(one).type('form').send({ ...SIMPLE, _csrf, ...rules });
    expect(res.status).to.equal(303);
    const saved = await Check.findById(check._id).lean();
    expect(saved).to.include({ failThreshold: 3, failWindow: 600, minDuration: 10, minInterval: 60, notifyLate: true, repeatEvery: 3600 });
    expect(saved?.dependsOn).to.deep.equal([parent._id]);
    const page = (await agent.get(one)).text;
    expect(page).to.contain('id="rule-fail_threshold">3 failures within 600 seconds</dd>').and.contain('id="rule-depends_on">database</dd>');
    expect(page).to.contain('id="rule-min_duration">10 seconds').and.contain('id="rule-notify_late">yes').and.contain('id="rule-repeat_every">3600 seconds');
  });

  it('keeps the failure count when the rules are saved unchanged, and turns a rule off when emptied', async () => {
    const { agent, check, one, _csrf } = await setUp();
    const failRun = [new Date('2026-11-01T00:00:00Z')];
    await Check.updateOne({ _id: check._id }, { $set: { failThreshold: 3, failRun } });
    await agent.post(one).type('form').send({ ...SIMPLE, _csrf, fail_threshold: '3' });
    expect((await Check.findById(check._id).lean())?.failRun).to.deep.equal(failRun);
    await agent.post(one).type('form').send({ ...SIMPLE, _csrf, fail_threshold: '' });
    expect(await Check.findById(check._id).lean()).to.include({ failThreshold: null });
  });

  it("shows the API's message beside a bad rule and changes nothing", async () => {
    const { agent, check, one, _csrf } = await setUp();
    const zero = await agent.post(one).type('form').send({ ...SIMPLE, _csrf, fail_threshold: '0' });
    expect(zero.status).to.equal(400);
    expect(zero.text).to.contain('<p class="field-error" id="fail_threshold-error">fail_threshold is too small</p>');
    const soon = await agent.post(one).type('form').send({ ...SIMPLE, _csrf, repeat_every: '10' });
    expect(soon.text).to.contain('id="repeat_every-error">repeat_every is too small</p>');
    const word = await agent.post(one).type('form').send({ ...SIMPLE, _csrf, min_duration: 'long' });
    expect(word.text).to.contain('id="min_duration-error">min_duration is not a number</p>');
    const itself = await agent.post(one).type('form').send({ ...SIMPLE, _csrf, depends_on: check._id });
    expect(itself.status).to.equal(400);
    expect(itself.text).to.contain('id="depends_on-error">depends_on names the check itself</p>');
    const stored = await Check.findById(check._id).lean();
    expect(stored?.failThreshold ?? null).to.equal(null);
    expect(stored?.dependsOn ?? null).to.equal(null);
  });

  it("lists the check's flips with the rule that played a part", async () => {
    const { agent, check, one } = await setUp();
    const at = new Date('2026-11-20T10:00:00Z');
    await Flip.create({ checkId: check._id, created: at, recorded: at, oldStatus: 'up', newStatus: 'down', reason: 'fail', marks: ['threshold'] });
    await Flip.create({ checkId: check._id, created: new Date(at.getTime() + 60_000), recorded: at, oldStatus: 'down', newStatus: 'up', reason: '', maintenance: true });
    const page = (await agent.get(one)).text;
    expect(page).to.contain('2026-11-20 10:00:00 UTC</time>: up → down (fail) <span class="mark mark-threshold">fail threshold reached</span>');
    expect(page).to.contain('down → up <span class="mark mark-maintenance">during maintenance: alerts held</span>');
  });
});
