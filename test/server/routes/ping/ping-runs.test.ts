import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { storedCheck, storedPings, testClock, type TestClock } from '../../../helpers/pings.js';

const RID_A = '0b1e5a3c-1111-4a2b-8c3d-000000000001';
const RID_B = '0b1e5a3c-2222-4a2b-8c3d-000000000002';

/** Run tracking through pings (docs/checks.md, "Runs"). */
describe('Pinging API run tracking (docs/checks.md, "Runs")', () => {
  let project: TestProject;
  let tc: TestClock;
  const ping = (path: string) => http(tc.clock).get(path);
  beforeEach(async () => {
    project = await buildProject();
    tc = testClock();
  });

  it('pairs start and success without rid: last_duration measured, last_start cleared', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start`);
    tc.advance(42);
    await ping(`/ping/${check._id}`);
    expect(await storedCheck(check._id)).to.include({ lastDurationMs: 42_000, lastStart: null, status: 'up' });
  });

  it('pairs start and success with the same rid', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start?rid=${RID_A}`);
    tc.advance(5);
    await ping(`/ping/${check._id}?rid=${RID_A}`);
    expect(await storedCheck(check._id)).to.include({ lastDurationMs: 5000, lastStart: null, lastStartRid: RID_A });
  });

  it('pairs start and fail with the same rid, measuring the run', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start?rid=${RID_A}`);
    tc.advance(3);
    await ping(`/ping/${check._id}/fail?rid=${RID_A}`);
    expect(await storedCheck(check._id)).to.include({ lastDurationMs: 3000, lastStart: null, status: 'down' });
  });

  it('keeps the run going on a success with a different rid', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start?rid=${RID_A}`);
    const started = tc.now;
    tc.advance(5);
    await ping(`/ping/${check._id}?rid=${RID_B}`);
    const stored = await storedCheck(check._id);
    expect(stored).to.include({ lastDurationMs: null, lastStartRid: RID_A, status: 'up' });
    expect(stored.lastStart).to.deep.equal(started);
  });

  it('ends the run unmeasured on a success without rid after a start with rid', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start?rid=${RID_A}`);
    tc.advance(5);
    await ping(`/ping/${check._id}`);
    expect(await storedCheck(check._id)).to.include({ lastDurationMs: null, lastStart: null });
  });

  it('ends the run unmeasured on a fail with a different rid', async () => {
    const check = await buildCheck(project);
    await ping(`/ping/${check._id}/start?rid=${RID_A}`);
    tc.advance(5);
    await ping(`/ping/${check._id}/fail?rid=${RID_B}`);
    expect(await storedCheck(check._id)).to.include({ lastDurationMs: null, lastStart: null, status: 'down' });
  });

  it('clears the previous last_duration on the next completion without a start', async () => {
    const check = await buildCheck(project, { lastDurationMs: 1234 });
    await ping(`/ping/${check._id}`);
    expect((await storedCheck(check._id)).lastDurationMs).to.equal(null);
  });

  it('log and ignored pings do not end a run', async () => {
    const check = await buildCheck(project, { methods: 'POST' });
    await http(tc.clock).post(`/ping/${check._id}/start`);
    await ping(`/ping/${check._id}/log`);
    await ping(`/ping/${check._id}`);
    expect((await storedPings(check._id)).map((p) => p.kind)).to.deep.equal(['start', 'ign', 'ign']);
    expect((await storedCheck(check._id)).lastStart).to.deep.equal(tc.now);
  });
});
