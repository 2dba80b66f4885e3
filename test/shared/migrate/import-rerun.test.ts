/** Running an import again, a dry run, conflicts and a foreign file (shared/migrate/, docs/migrating.md "Running it again"). */
import { expect } from 'chai';
import { Check } from '../../../shared/models/check.js';
import { Ping } from '../../../shared/models/ping.js';
import { Flip } from '../../../shared/models/flip.js';
import { Notification } from '../../../shared/models/notification.js';
import { Project } from '../../../shared/models/project.js';
import { User } from '../../../shared/models/user.js';
import { AppError } from '../../../shared/errors.js';
import { importDump } from '../../../shared/migrate/import.js';
import { buildCheck, buildProject, http } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { DUMP_TEXT, importFixture, NIGHTLY, RECORDED_AT, SECRETS } from '../../helpers/healthchecks-fixture.js';

const counts = async () => Promise.all([Project, User, Check, Ping, Flip, Notification].map((m) => (m as typeof Check).countDocuments()));

describe('import healthchecks: again, dry, in conflict', () => {
  it('imports 2 projects, 2 people, 7 checks, 13 pings, 9 flips and 2 notifications, and lists what it skips', async () => {
    const report = await importFixture();
    expect(report.written).to.deep.include({ projects: 2, users: 2, channels: 4, checksCreated: 7, pings: 13, flips: 9, notifications: 2 });
    expect(await counts()).to.deep.equal([2, 2, 7, 13, 9, 2]);
    expect(report.skipped).to.deep.equal([]);
  });

  it('updates what it made when run again, duplicating nothing', async () => {
    await importFixture();
    await Check.updateOne({ _id: NIGHTLY }, { $set: { name: 'renamed here' } });
    const again = await importFixture();
    expect(again.written).to.deep.include({ checksCreated: 0, checksUpdated: 7, pings: 0, flips: 0, notifications: 0, users: 0 });
    expect(await counts()).to.deep.equal([2, 2, 7, 13, 9, 2]);
    expect((await Check.findById(NIGHTLY).lean())?.name).to.equal('Nightly backup');
  });

  it('keeps the pings counted here since the first run', async () => {
    await importFixture();
    await http().get(`/ping/${NIGHTLY}`);
    await importFixture();
    expect((await Check.findById(NIGHTLY).lean())?.nPings).to.equal(6);
    expect(await Ping.countDocuments({ checkId: NIGHTLY })).to.equal(6);
  });

  it('writes nothing on a dry run and says what it would import', async () => {
    const report = await importDump(DUMP_TEXT, SECRETS.secret_key, { dryRun: true, now: RECORDED_AT });
    expect(report.projects.map((p) => [p.name, p.checks, p.channels])).to.deep.equal([['Backups', 6, 4], ["Bob's", 1, 0]]);
    expect(report.written).to.equal(null);
    expect(await counts()).to.deep.equal([0, 0, 0, 0, 0, 0]);
  });

  it('stops before writing anything when a check UUID is used here by another project', async () => {
    const other = await buildProject();
    await buildCheck(other, { _id: NIGHTLY });
    const err = await importFixture().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).status).to.equal(409);
    expect((err as AppError).message).to.contain(`check UUID ${NIGHTLY} is used here by project ${other.project._id}`);
    expect(await counts()).to.deep.equal([1, 0, 1, 0, 0, 0]);
  });

  it('stops when the ping key is used here by another project', async () => {
    const other = await buildProject();
    await Project.updateOne({ _id: other.project._id }, { $set: { pingKey: Object.values(SECRETS.ping_keys)[0] } });
    const err = (await importFixture().catch((e: unknown) => e)) as AppError;
    expect([err.status, err.message]).to.deep.equal([409, `nothing imported: ping key of project "Backups" is used here by project ${other.project._id}`]);
  });

  it('refuses a file that is not a dump with one line', async () => {
    for (const text of ['not json', '{"a": 1}', '[{"model": "api.check", "pk": 1, "fields": {}}]', JSON.stringify([{ model: 'x.y', pk: 1, fields: {} }])]) {
      const err = (await importDump(text, undefined, { now: new Date(), queues: testContext().queues }).catch((e: unknown) => e)) as AppError;
      expect(err.status).to.equal(400);
      expect(err.message).to.match(/^not a Healthchecks dump .*: /).and.not.contain('\n');
    }
    expect(await Project.countDocuments()).to.equal(0);
  });

  it('without the secret key keeps the ping URLs and lists the API keys it could not keep', async () => {
    const report = await importDump(DUMP_TEXT, undefined, { now: RECORDED_AT, queues: testContext().queues });
    expect(report.skipped).to.have.length(2);
    expect(report.skipped[0]).to.contain('API keys of project "Backups"');
    expect((await http().get('/api/v3/checks/').set('X-Api-Key', SECRETS.api_keys[Object.keys(SECRETS.api_keys)[0]].rw)).status).to.equal(401);
    expect((await http().get(`/ping/${NIGHTLY}`)).status).to.equal(200);
  });
});
