import { expect } from 'chai';
import { ruleChange, wakeAt, type RuleState } from '../../../shared/domain/timer-rules.js';

const at = (s: number) => new Date(Date.UTC(2024, 2, 31, 0, 0, s));

/** An up check pinged at 0 s: grace from 60 s, down at 120 s. */
function check(fields: Partial<RuleState> = {}): RuleState {
  return {
    kind: 'simple', timeout: 60, grace: 60, schedule: '* * * * *', tz: 'UTC', status: 'up', lastPing: at(0), lastStart: null, lastStartRid: null,
    manualResume: false, deadline: at(120), ...fields,
  };
}

describe('shared/domain/timer-rules', () => {
  it('wakes a check without rules at its deadline', () => {
    expect(wakeAt(check())).to.deep.equal(at(120));
  });

  it('wakes a notify_late check when its grace period starts, then at the deadline once warned', () => {
    expect(wakeAt(check({ notifyLate: true }))).to.deep.equal(at(60));
    expect(wakeAt(check({ notifyLate: true, lateFor: at(60) }))).to.deep.equal(at(120));
  });

  it('owes one late alert inside the grace period, none before it', () => {
    expect(ruleChange(check({ notifyLate: true }), at(59))).to.equal(null);
    const change = ruleChange(check({ notifyLate: true }), at(61));
    expect(change).to.deep.equal({ set: { lateFor: at(60) }, owe: [{ oldStatus: 'up', newStatus: 'up', reason: '', event: 'late' }] });
    expect(ruleChange(check({ notifyLate: true, lateFor: at(60) }), at(61))).to.equal(null);
  });

  it('owes reminder n+1 when due and schedules the next one repeat_every later', () => {
    const down = check({ status: 'down', deadline: null, repeatEvery: 300, remindAt: at(400), remindN: 1 });
    expect(ruleChange(down, at(399))).to.equal(null);
    expect(ruleChange(down, at(401))).to.deep.equal({
      set: { remindAt: at(700), remindN: 2 }, owe: [{ oldStatus: 'down', newStatus: 'down', reason: '', event: 'reminder', n: 2 }],
    });
  });

  it('schedules from now when the worker was later than a whole interval (no burst of reminders)', () => {
    const down = check({ status: 'down', deadline: null, repeatEvery: 300, remindAt: at(400), remindN: 0 });
    expect(ruleChange(down, at(1000))?.set.remindAt).to.deep.equal(at(1300));
  });

  it('owes no reminder to a check that recovered or was paused', () => {
    for (const status of ['up', 'paused', 'new'] as const) {
      expect(ruleChange(check({ status, repeatEvery: 300, remindAt: at(10) }), at(1000))).to.equal(null);
    }
  });
});
