import { expect } from 'chai';
import { applySignal, type CheckState } from '../../../shared/domain/status.js';

const T = new Date('2024-05-01T12:00:00.000Z');
const NOW = new Date('2024-05-01T13:00:00.000Z');
const RID = '0b1e5a3c-1111-4a2b-8c3d-000000000001';
const OTHER = '0b1e5a3c-2222-4a2b-8c3d-000000000002';

function state(fields: Partial<CheckState> = {}): CheckState {
  return {
    kind: 'simple', timeout: 86400, grace: 3600, schedule: '* * * * *', tz: 'UTC',
    status: 'up', lastPing: T, lastStart: null, lastStartRid: null, manualResume: false, ...fields,
  };
}

/** What pings do to a check and its run (docs/checks.md, "What changes a check", "Runs"), as pure transitions. */
describe('shared/domain/status: applySignal', () => {
  it('new + success → up with a new→up flip, last_ping = now', () => {
    const out = applySignal(state({ status: 'new', lastPing: null }), 'success', NOW, null);
    expect(out).to.deep.include({ kind: 'success', flip: { oldStatus: 'new', newStatus: 'up', reason: '' } });
    expect(out.set).to.deep.include({ status: 'up', lastPing: NOW });
  });

  it('up + success → no flip and no status write', () => {
    const out = applySignal(state(), 'success', NOW, null);
    expect(out.flip).to.equal(null);
    expect(out.set).to.deep.equal({ lastPing: NOW, lastDurationMs: null });
  });

  it('down and paused (manual_resume false) + success → up with a flip', () => {
    for (const status of ['down', 'paused'] as const) {
      expect(applySignal(state({ status }), 'success', NOW, null).flip).to.deep.equal({ oldStatus: status, newStatus: 'up', reason: '' });
    }
  });

  it('new, up and paused + fail → down with reason fail, run cleared', () => {
    for (const status of ['new', 'up', 'paused'] as const) {
      const out = applySignal(state({ status, lastStart: T, lastStartRid: RID }), 'fail', NOW, null);
      expect(out.flip).to.deep.equal({ oldStatus: status, newStatus: 'down', reason: 'fail' });
      expect(out.set).to.deep.include({ status: 'down', lastPing: NOW, lastStart: null });
    }
  });

  it('down + fail → no flip, last_ping = now, run cleared', () => {
    const out = applySignal(state({ status: 'down', lastStart: T }), 'fail', NOW, OTHER);
    expect(out.flip).to.equal(null);
    expect(out.set).to.deep.include({ lastPing: NOW, lastStart: null });
  });

  it('start sets last_start and rid only; a paused check stays paused', () => {
    const out = applySignal(state({ status: 'paused' }), 'start', NOW, RID);
    expect(out).to.deep.include({ kind: 'start', flip: null, set: { lastStart: NOW, lastStartRid: RID } });
    expect(out.next).to.include({ status: 'paused', lastPing: T });
  });

  it('log and ign change nothing', () => {
    for (const signal of ['log', 'ign'] as const) {
      expect(applySignal(state({ lastStart: T }), signal, NOW, RID)).to.deep.include({ kind: signal, set: {}, flip: null });
    }
  });

  it('paused with manual_resume turns every signal into ign', () => {
    for (const signal of ['success', 'fail', 'start', 'log'] as const) {
      const out = applySignal(state({ status: 'paused', manualResume: true }), signal, NOW, null);
      expect(out).to.deep.include({ kind: 'ign', set: {}, flip: null });
    }
  });

  it('a matching rid (null = null) records the duration in ms and ends the run', () => {
    expect(applySignal(state({ lastStart: T }), 'success', NOW, null).set).to.deep.include({ lastDurationMs: 3_600_000, lastStart: null });
    expect(applySignal(state({ lastStart: T, lastStartRid: RID }), 'fail', NOW, RID).set).to.deep.include({ lastDurationMs: 3_600_000 });
  });

  it('success with another non-null rid keeps the run; without rid it ends unmeasured', () => {
    const running = state({ lastStart: T, lastStartRid: RID });
    expect(applySignal(running, 'success', NOW, OTHER).set).to.deep.equal({ lastPing: NOW, lastDurationMs: null });
    expect(applySignal(running, 'success', NOW, null).set).to.deep.include({ lastStart: null, lastDurationMs: null });
  });

  it('a missing stored rid counts as null', () => {
    const legacy = { ...state({ lastStart: T }), lastStartRid: undefined as unknown as null };
    expect(applySignal(legacy, 'success', NOW, null).set.lastDurationMs).to.equal(3_600_000);
  });
});
