import { expect } from 'chai';
import { downtimeOf, formatDowntime, formatUptime, knownZone, lastPeriod, periodAt } from '../../../shared/domain/report-period.js';

const at = (iso: string): Date => new Date(iso);
const DAY = { start: at('2026-03-01T00:00:00Z'), end: at('2026-03-02T00:00:00Z') };

describe('periodAt and lastPeriod', () => {
  it('a daily report covers the local day that ended, in the user zone', () => {
    expect(lastPeriod('daily', 'Asia/Tokyo', at('2026-11-28T02:00:00Z'))).to.deep.equal({ start: at('2026-11-26T15:00:00Z'), end: at('2026-11-27T15:00:00Z') });
  });

  it('a weekly report covers Monday to Monday', () => {
    // 2026-11-28 is a Saturday.
    expect(lastPeriod('weekly', 'UTC', at('2026-11-28T12:00:00Z'))).to.deep.equal({ start: at('2026-11-16T00:00:00Z'), end: at('2026-11-23T00:00:00Z') });
  });

  it('a monthly report covers the previous calendar month', () => {
    expect(lastPeriod('monthly', 'UTC', at('2026-03-01T00:00:00Z'))).to.deep.equal({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
  });

  it('a local day across a DST change lasts 23 hours', () => {
    // Europe/Berlin springs forward on 2026-03-29.
    const day = periodAt('daily', 'Europe/Berlin', at('2026-03-29T12:00:00Z'));
    expect(day).to.deep.equal({ start: at('2026-03-28T23:00:00Z'), end: at('2026-03-29T22:00:00Z') });
  });

  it('an hourly reminder period is the local hour, half-hour zones included', () => {
    expect(periodAt('hourly', 'Asia/Kolkata', at('2026-11-28T02:10:00Z'))).to.deep.equal({ start: at('2026-11-28T01:30:00Z'), end: at('2026-11-28T02:30:00Z') });
  });

  it('an unknown zone falls back to UTC', () => {
    expect(knownZone('Mars/Olympus')).to.equal('UTC');
    expect(knownZone('Europe/Paris')).to.equal('Europe/Paris');
  });
});

describe('downtimeOf', () => {
  it('is all up without flips', () => {
    expect(downtimeOf(DAY, false, [])).to.deep.equal({ downtimes: 0, downSeconds: 0, uptime: 1 });
  });

  it('counts each down spell and its length', () => {
    const flips = [
      { created: at('2026-03-01T06:00:00Z'), newStatus: 'down' as const },
      { created: at('2026-03-01T12:00:00Z'), newStatus: 'up' as const },
      { created: at('2026-03-01T18:00:00Z'), newStatus: 'down' as const },
      { created: at('2026-03-01T19:00:00Z'), newStatus: 'up' as const },
    ];
    const d = downtimeOf(DAY, false, flips);
    expect(d.downtimes).to.equal(2);
    expect(d.downSeconds).to.equal(7 * 3600);
    expect(d.uptime).to.be.closeTo(17 / 24, 1e-9);
  });

  it('counts a spell already down at the start, up to the end when it never recovered', () => {
    const d = downtimeOf(DAY, true, [{ created: at('2026-03-01T06:00:00Z'), newStatus: 'up' as const }, { created: at('2026-03-01T18:00:00Z'), newStatus: 'down' as const }]);
    expect(d).to.deep.equal({ downtimes: 2, downSeconds: 12 * 3600, uptime: 0.5 });
  });

  it('measures from the creation of a check made during the period, and ignores flips outside it', () => {
    const flips = [{ created: at('2026-03-01T18:00:00Z'), newStatus: 'down' as const }, { created: at('2026-03-02T01:00:00Z'), newStatus: 'up' as const }];
    const d = downtimeOf(DAY, false, flips, at('2026-03-01T12:00:00Z'));
    expect(d).to.deep.equal({ downtimes: 1, downSeconds: 6 * 3600, uptime: 0.5 });
  });

  it('treats a pause as the end of a down spell', () => {
    const flips = [{ created: at('2026-03-01T00:00:00Z'), newStatus: 'down' as const }, { created: at('2026-03-01T12:00:00Z'), newStatus: 'paused' as const }];
    expect(downtimeOf(DAY, false, flips).downSeconds).to.equal(12 * 3600);
  });
});

describe('formatDowntime and formatUptime', () => {
  it('writes minutes, hours and days', () => {
    expect([0, 20, 300, 7500, 7200, 97200].map(formatDowntime)).to.deep.equal(['0 min', '1 min', '5 min', '2 h 5 min', '2 h', '1 d 3 h']);
  });

  it('never rounds a downtime up to 100%', () => {
    expect(formatUptime(0.99999)).to.equal('99.99%');
    expect(formatUptime(1)).to.equal('100.00%');
  });
});
