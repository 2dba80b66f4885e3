import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { deadlineWorker } from '../../../shared/deadlines/process.js';
import { buildProject, type TestProject } from '../../helpers/factories.js';
import { api } from '../../server/routes/support.js';
import { downFlips, ping, startTestWorkers, stored, wentDown, type TestWorkers } from '../../workers/support.js';

/** The UTC wall time of `at` as an OnCalendar time of day, `hh:mm:ss`. */
const timeOfDay = (at: Date) => at.toISOString().slice(11, 19);

/** A check made through the API with an OnCalendar schedule, pinged, then left alone with real deadline workers. */
describe('an OnCalendar check with real workers (docs/checks.md, "Deadlines"; docs/api.md, "OnCalendar schedules")', () => {
  let project: TestProject;
  let running: TestWorkers;

  beforeEach(async () => {
    project = await buildProject();
    running = startTestWorkers(deadlineWorker);
  });
  afterEach(async () => running.stop());

  it('goes late at the calendar moment and down grace seconds later, the flip dated then', async () => {
    // The next occurrence: a whole second 3 s from now, daily (`*-*-* hh:mm:ss` in UTC); grace 1 s (tests allow it).
    const due = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000);
    const created = await api(project.apiKey).post('/checks/', { schedule: `*-*-* ${timeOfDay(due)}`, tz: 'UTC', grace: 1 });
    expect([created.status, (await stored(created.body.uuid)).kind]).to.deep.equal([201, 'oncalendar']);
    const id: string = created.body.uuid;
    const pinged = await ping(id);
    expect(pinged.deadline?.toISOString()).to.equal(new Date(due.getTime() + 1000).toISOString());
    expect((await api(project.apiKey).get(`/checks/${id}`)).body).to.include({ status: 'up', next_ping: due.toISOString().replace('.000Z', '+00:00') });
    await sleep(due.getTime() + 300 - Date.now());
    expect((await api(project.apiKey).get(`/checks/${id}`)).body.status).to.equal('grace');
    await wentDown(id, 5_000);
    const flips = await downFlips(id);
    expect(flips.map((f) => [f.oldStatus, f.reason, f.created.toISOString()])).to.deep.equal([['up', 'timeout', new Date(due.getTime() + 1000).toISOString()]]);
  });
});
