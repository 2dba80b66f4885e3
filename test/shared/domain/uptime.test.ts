import { expect } from 'chai';
import { downtimesByMonth, downtimesIn, periodsFrom, recentMonths, statusPeriods, uptimeIn, type StatusChange } from '../../../shared/domain/uptime.js';
import type { StoredStatus } from '../../../shared/models/check.js';

const HOUR = 3600_000;
const T0 = new Date('2026-11-27T00:00:00Z');
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
const flip = (hours: number, oldStatus: StoredStatus, newStatus: StoredStatus): StatusChange => ({ created: at(hours), oldStatus, newStatus });

describe('statusPeriods and uptimeIn', () => {
  it('is down for 6 of 24 hours across two flips: 75%', () => {
    const periods = statusPeriods([flip(10, 'up', 'down'), flip(16, 'down', 'up')], 'up', at(0), at(24));
    expect(periods.map((p) => p.status)).to.deep.equal(['up', 'down', 'up']);
    expect(uptimeIn(periods, at(0), at(24))).to.deep.equal({ upMs: 18 * HOUR, downMs: 6 * HOUR, ratio: 0.75 });
  });

  it('takes the status before the first change from its old status, and the current status when nothing changed', () => {
    expect(statusPeriods([flip(12, 'down', 'up')], 'up', at(0), at(24)).map((p) => p.status)).to.deep.equal(['down', 'up']);
    expect(statusPeriods([], 'down', at(0), at(24))).to.deep.equal([{ from: at(0), to: at(24), status: 'down' }]);
  });

  it('cuts periods at the window edges and ignores changes outside it', () => {
    const periods = statusPeriods([flip(-5, 'up', 'down'), flip(2, 'down', 'up'), flip(30, 'up', 'down')], 'down', at(0), at(24));
    expect(periods).to.deep.equal([{ from: at(0), to: at(2), status: 'down' }, { from: at(2), to: at(24), status: 'up' }]);
    // A narrower window of the same periods: hours 1 to 3 are half down.
    expect(uptimeIn(periods, at(1), at(3)).ratio).to.equal(0.5);
  });

  it('leaves new and paused time out, and has no ratio when the check was only new or paused', () => {
    const periods = statusPeriods([flip(6, 'new', 'up'), flip(12, 'up', 'down'), flip(15, 'down', 'paused')], 'paused', at(0), at(24));
    expect(uptimeIn(periods, at(0), at(24))).to.deep.equal({ upMs: 6 * HOUR, downMs: 3 * HOUR, ratio: 6 / 9 });
    expect(uptimeIn(statusPeriods([], 'new', at(0), at(24)), at(0), at(24)).ratio).to.equal(null);
  });
});

describe('recentMonths and downtimesByMonth', () => {
  it('lists calendar months in the zone, the present one first', () => {
    const months = recentMonths(new Date('2026-12-01T03:00:00Z'), 'America/New_York', 3);
    expect(months.map((m) => m.label)).to.deep.equal(['November 2026', 'October 2026', 'September 2026']);
    expect(months[0]?.start.toISOString()).to.equal('2026-11-01T04:00:00.000Z');
    expect(months[0]?.end.toISOString()).to.equal('2026-12-01T05:00:00.000Z');
  });

  it('counts a down period in each month it overlaps, with the time inside each', () => {
    const months = recentMonths(new Date('2026-11-20T00:00:00Z'), 'UTC', 2);
    const changes = [flip(-26 * 24 - 2, 'up', 'down'), flip(-26 * 24 + 3, 'down', 'up'), flip(-24, 'up', 'down'), flip(-23, 'down', 'up'), flip(-20, 'up', 'down'), flip(-19.5, 'down', 'up')];
    const periods = statusPeriods(changes, 'up', months[1].start, new Date('2026-11-20T00:00:00Z'));
    // 31 Oct 22:00 to 1 Nov 03:00 spans both months; 26 Nov is after "now" and left out.
    const result = downtimesByMonth(periods, months).map(({ label, count, downMs }) => ({ label, count, hours: downMs / HOUR }));
    expect(result).to.deep.equal([{ label: 'November 2026', count: 1, hours: 3 }, { label: 'October 2026', count: 1, hours: 2 }]);
  });

  it('counts adjacent down periods as one spell, and only time inside the span', () => {
    const periods = periodsFrom('up', [flip(2, 'up', 'down'), flip(4, 'down', 'down'), flip(6, 'down', 'up'), flip(20, 'up', 'down')], at(0), at(24));
    expect(downtimesIn(periods, at(0), at(24))).to.deep.equal({ count: 2, downMs: 8 * HOUR });
    expect(downtimesIn(periods, at(5), at(21))).to.deep.equal({ count: 2, downMs: 2 * HOUR });
  });
});
