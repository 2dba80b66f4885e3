import { expect } from 'chai';
import { deadlineOf, graceStart, liveStatus, notifiesOn, regularGraceStart, type CheckState } from '../../../shared/domain/status.js';

const T = new Date('2024-05-01T12:00:00.000Z');
const at = (seconds: number): Date => new Date(T.getTime() + seconds * 1000);
const DAY = 86400;
const HOUR = 3600;

/** A simple, stored-up check pinged at T with timeout 1 day and grace 1 hour. */
function state(fields: Partial<CheckState> = {}): CheckState {
  return {
    kind: 'simple', timeout: DAY, grace: HOUR, schedule: '* * * * *', tz: 'UTC',
    status: 'up', lastPing: T, lastStart: null, lastStartRid: null, manualResume: false, ...fields,
  };
}

describe('shared/domain/status: deadlines and live status', () => {
  describe('regularGraceStart', () => {
    it('is last_ping + timeout for a simple up check', () => {
      expect(regularGraceStart(state())).to.deep.equal(at(DAY));
    });

    it('is null for new, paused and down checks', () => {
      for (const status of ['new', 'paused', 'down'] as const) expect(regularGraceStart(state({ status }))).to.equal(null);
    });

    it('is the first cron match strictly after last_ping', () => {
      const cron = state({ kind: 'cron', schedule: '0 * * * *' });
      expect(regularGraceStart(cron)).to.deep.equal(at(HOUR));
      expect(regularGraceStart({ ...cron, lastPing: at(-0.5) })).to.deep.equal(T);
    });

    it('evaluates cron in tz across a DST change and returns UTC', () => {
      const ny = state({ kind: 'cron', schedule: '0 12 * * *', tz: 'America/New_York', lastPing: new Date('2024-03-09T18:00:00Z') });
      expect(regularGraceStart(ny)).to.deep.equal(new Date('2024-03-10T16:00:00Z'));
    });
  });

  describe('graceStart (next_ping)', () => {
    it('is the earlier of the regular grace start and last_start', () => {
      expect(graceStart(state({ lastStart: at(60) }))).to.deep.equal(at(60));
      expect(graceStart(state({ timeout: 60, lastStart: at(120) }))).to.deep.equal(at(60));
    });

    it('is last_start for a new or paused check with a run, null without', () => {
      expect(graceStart(state({ status: 'new', lastPing: null, lastStart: at(5) }))).to.deep.equal(at(5));
      expect(graceStart(state({ status: 'paused', lastStart: at(5) }))).to.deep.equal(at(5));
      expect(graceStart(state({ status: 'new', lastPing: null }))).to.equal(null);
    });

    it('is null for a down check even with a run', () => {
      expect(graceStart(state({ status: 'down', lastStart: at(5) }))).to.equal(null);
    });
  });

  describe('deadlineOf (alert_after)', () => {
    it('is grace start + grace', () => {
      expect(deadlineOf(state())).to.deep.equal(at(DAY + HOUR));
      expect(deadlineOf(state({ status: 'paused', lastStart: at(10) }))).to.deep.equal(at(10 + HOUR));
    });

    it('adds grace to a cron grace start in absolute time', () => {
      const cron = state({ kind: 'cron', schedule: '30 2 * * *', tz: 'Europe/Riga', grace: 600 });
      expect(deadlineOf(cron)).to.deep.equal(new Date('2024-05-01T23:40:00Z'));
    });

    it('is null when no grace start applies', () => {
      expect(deadlineOf(state({ status: 'down' }))).to.equal(null);
      expect(deadlineOf(state({ status: 'new', lastPing: null }))).to.equal(null);
    });
  });

  describe('liveStatus', () => {
    it('follows the worked example: up until T+24h, grace from T+24h, down from T+25h', () => {
      expect(liveStatus(state(), at(DAY - 0.001))).to.equal('up');
      expect(liveStatus(state(), at(DAY))).to.equal('grace');
      expect(liveStatus(state(), at(DAY + HOUR - 0.001))).to.equal('grace');
      expect(liveStatus(state(), at(DAY + HOUR))).to.equal('down');
    });

    it('reports new, paused and down as stored', () => {
      for (const status of ['new', 'paused', 'down'] as const) expect(liveStatus(state({ status }), at(10 * DAY))).to.equal(status);
    });

    it('is down once a run overruns its grace, whatever the stored status (inclusive)', () => {
      for (const status of ['new', 'paused', 'up'] as const) {
        const running = state({ status, lastStart: T });
        expect(liveStatus(running, at(HOUR - 0.001))).to.equal(status);
        expect(liveStatus(running, at(HOUR))).to.equal('down');
      }
    });

    it('uses the regular grace start, not last_start, for grace on an up check', () => {
      expect(liveStatus(state({ lastStart: at(10) }), at(20))).to.equal('up');
    });

    it('goes to grace at the next cron match and down grace later', () => {
      const cron = state({ kind: 'cron', schedule: '0 * * * *', grace: 300 });
      expect(liveStatus(cron, at(HOUR - 1))).to.equal('up');
      expect(liveStatus(cron, at(HOUR))).to.equal('grace');
      expect(liveStatus(cron, at(HOUR + 300))).to.equal('down');
    });
  });

  describe('notifiesOn', () => {
    it('notifies changes into down and down→up only', () => {
      expect(notifiesOn({ oldStatus: 'up', newStatus: 'down', reason: 'fail' })).to.equal(true);
      expect(notifiesOn({ oldStatus: 'down', newStatus: 'up', reason: '' })).to.equal(true);
      expect(notifiesOn({ oldStatus: 'new', newStatus: 'up', reason: '' })).to.equal(false);
      expect(notifiesOn({ oldStatus: 'paused', newStatus: 'up', reason: '' })).to.equal(false);
    });
  });
});
