import { expect } from 'chai';
import { applySignal, deadlineOf } from '../../../shared/domain/status.js';
import { applyRules, hasPingRules, type RuledState } from '../../../shared/domain/rules.js';

const T = new Date('2024-05-01T12:00:00.000Z');
const at = (seconds: number): Date => new Date(T.getTime() + seconds * 1000);

function state(fields: Partial<RuledState> = {}): RuledState {
  return {
    kind: 'simple', timeout: 86400, grace: 3600, schedule: '* * * * *', tz: 'UTC',
    status: 'up', lastPing: T, lastStart: null, lastStartRid: null, manualResume: false, ...fields,
  };
}

/** Applies signals one after another from `check`, each `step` seconds apart; returns every outcome. */
function run(check: RuledState, signals: ('success' | 'fail' | 'start')[], step = 10) {
  let current = check;
  return signals.map((signal, i) => {
    const outcome = applyRules(current, signal, at((i + 1) * step), null);
    current = { ...current, ...outcome.set };
    return { outcome, check: current };
  });
}

/** The ping-side rules of docs/alerting-rules.md (failure threshold, too fast, too often), as pure transitions. */
describe('shared/domain/rules: applyRules', () => {
  it('is exactly applySignal for a check without rules (and for a threshold of 1)', () => {
    for (const check of [state(), state({ failThreshold: 1, failWindow: null, minDuration: null, minInterval: null })]) {
      expect(hasPingRules(check)).to.equal(false);
      for (const signal of ['success', 'fail', 'start', 'log'] as const) {
        expect(applyRules(check, signal, at(5), null)).to.deep.equal(applySignal(check, signal, at(5), null));
      }
    }
  });

  it('fail_threshold 3: the first two failures keep the check up, the third flips it down marked "threshold"', () => {
    const steps = run(state({ failThreshold: 3 }), ['fail', 'fail', 'fail']);
    expect(steps.map((s) => [s.outcome.kind, s.check.status])).to.deep.equal([['fail', 'up'], ['fail', 'up'], ['fail', 'down']]);
    expect(steps.map((s) => s.outcome.flip)).to.deep.equal([null, null, { oldStatus: 'up', newStatus: 'down', reason: 'fail', marks: ['threshold'] }]);
    expect(steps[1].check.failRun).to.deep.equal([at(10), at(20)]);
    expect(steps[2].check.failRun).to.deep.equal([]);
  });

  it('fail_threshold without a window: a success in between starts the count again', () => {
    const steps = run(state({ failThreshold: 2 }), ['fail', 'success', 'fail', 'fail']);
    expect(steps.map((s) => s.check.status)).to.deep.equal(['up', 'up', 'up', 'down']);
  });

  it('a failure below the threshold still records the ping: last_ping moves and the deadline follows it', () => {
    const [step] = run(state({ failThreshold: 2 }), ['fail']);
    expect(step.outcome.set).to.deep.include({ lastPing: at(10) });
    expect(step.outcome.flip).to.equal(null);
    expect(deadlineOf(step.check)).to.deep.equal(at(10 + 86400 + 3600));
  });

  it('fail_window: failures count within the window, successes in between or not', () => {
    const windowed = state({ failThreshold: 2, failWindow: 60 });
    expect(run(windowed, ['fail', 'success', 'fail']).map((s) => s.check.status)).to.deep.equal(['up', 'up', 'down']);
    expect(run(windowed, ['fail', 'fail'], 61).map((s) => s.check.status)).to.deep.equal(['up', 'up']);
  });

  it('a new check below the threshold becomes up (as a success would), with an unalerting new→up flip', () => {
    const [step] = run(state({ status: 'new', lastPing: null, failThreshold: 2 }), ['fail']);
    expect(step.outcome.flip).to.deep.equal({ oldStatus: 'new', newStatus: 'up', reason: '' });
  });

  it('a check already down stays down on a failure, whatever the threshold', () => {
    const [step] = run(state({ status: 'down', failThreshold: 5 }), ['fail']);
    expect([step.check.status, step.outcome.flip]).to.deep.equal(['down', null]);
  });

  it('min_duration: a success whose measured run is shorter is a failure "too_fast"; a longer one or an unmeasured one is a success', () => {
    const check = state({ minDuration: 30, lastStart: at(0) });
    const fast = applyRules(check, 'success', at(29), null);
    expect([fast.kind, fast.flip]).to.deep.equal(['fail', { oldStatus: 'up', newStatus: 'down', reason: 'fail', marks: ['too_fast'] }]);
    expect(fast.set.lastDurationMs).to.equal(29_000);
    expect(applyRules(check, 'success', at(30), null).kind).to.equal('success');
    expect(applyRules(state({ minDuration: 30 }), 'success', at(1), null).kind).to.equal('success');
  });

  it('min_interval: a success sooner than the interval after the previous success is a failure "too_often"', () => {
    const steps = run(state({ minInterval: 60 }), ['success', 'success'], 30);
    expect(steps.map((s) => s.outcome.kind)).to.deep.equal(['success', 'fail']);
    expect(steps[1].outcome.flip).to.deep.equal({ oldStatus: 'up', newStatus: 'down', reason: 'fail', marks: ['too_often'] });
    expect(run(state({ minInterval: 60 }), ['success', 'success'], 60).map((s) => s.outcome.kind)).to.deep.equal(['success', 'success']);
  });

  it('min_interval counts from the previous success signal, a "too often" one included (a looping job keeps failing)', () => {
    const steps = run(state({ status: 'down', minInterval: 60 }), ['success', 'success', 'success'], 40);
    expect(steps.map((s) => s.outcome.kind)).to.deep.equal(['success', 'fail', 'fail']);
  });

  it('a "too fast" success counts toward the threshold, and the flip carries both marks', () => {
    const check = state({ failThreshold: 2, minDuration: 30, failRun: [at(0)], lastStart: at(5) });
    expect(applyRules(check, 'success', at(10), null).flip).to.deep.equal({
      oldStatus: 'up', newStatus: 'down', reason: 'fail', marks: ['too_fast', 'threshold'],
    });
  });

  it('a paused check with manual_resume ignores every signal, rules or not', () => {
    const out = applyRules(state({ status: 'paused', manualResume: true, failThreshold: 2 }), 'fail', at(1), null);
    expect([out.kind, out.flip]).to.deep.equal(['ign', null]);
  });
});
