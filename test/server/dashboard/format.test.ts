/**
 * The dashboard's pure formatting rules (server/dashboard/format.js), run in Node.
 */
import { expect } from 'chai';

/** The browser module, loaded from the source tree (this file runs as dist/test/server/dashboard/format.test.js). */
const format = await import(new URL('../../../../server/dashboard/format.js', import.meta.url).href);

const NOW = new Date('2026-11-24T12:00:00Z');
const ago = (seconds: number): string => new Date(NOW.getTime() - seconds * 1000).toISOString();

describe('dashboard format', () => {
  it('says a simple check schedule in words and a cron schedule with its time zone', () => {
    expect(format.scheduleInWords({ timeout: 300 })).to.equal('every 5 minutes');
    expect(format.scheduleInWords({ timeout: 60 })).to.equal('every minute');
    expect(format.scheduleInWords({ timeout: 86400 })).to.equal('every day');
    expect(format.scheduleInWords({ timeout: 90 })).to.equal('every 90 seconds');
    expect(format.scheduleInWords({ timeout: 7200 })).to.equal('every 2 hours');
    expect(format.scheduleInWords({ schedule: '0 3 * * *', tz: 'Europe/Riga' })).to.equal('cron 0 3 * * * Europe/Riga');
    expect(format.scheduleInWords({ schedule: 'Mon..Fri 09:00\nSat 12:00', tz: 'UTC' })).to.equal('OnCalendar Mon..Fri 09:00; Sat 12:00 UTC');
  });

  it('gives relative times in their largest unit, and never for null', () => {
    expect(format.relativeTime(null, NOW)).to.equal('never');
    expect(format.relativeTime(ago(2), NOW)).to.equal('just now');
    expect(format.relativeTime(ago(59), NOW)).to.equal('59 seconds ago');
    expect(format.relativeTime(ago(185), NOW)).to.equal('3 minutes ago');
    expect(format.relativeTime(ago(3600), NOW)).to.equal('1 hour ago');
    expect(format.relativeTime(ago(-7300), NOW)).to.equal('in 2 hours');
    expect(format.exactTime('2026-11-24T06:50:12.123456+00:00')).to.equal('2026-11-24 06:50:12 UTC');
  });

  it('sorts by status with down checks first, then by name', () => {
    const checks = ['up:b', 'paused:a', 'down:z', 'new:c', 'grace:d', 'down:y', 'started:e'].map((s) => {
      const [status, name] = s.split(':');
      return { status, name, last_ping: null };
    });
    expect(format.sortChecks(checks, 'status').map((c: { name: string }) => c.name)).to.deep.equal(['y', 'z', 'd', 'e', 'b', 'c', 'a']);
    expect(format.sortChecks(checks, 'name').map((c: { name: string }) => c.name)).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'y', 'z']);
  });

  it('filters by every clicked tag, as the API tag filter does, and by search text', () => {
    const check = { name: 'Nightly backup', slug: 'nightly-backup', tags: 'prod  db', desc: 'pg_dump to S3' };
    expect(format.matchesFilters(check, ['prod'], '')).to.equal(true);
    expect(format.matchesFilters(check, ['prod', 'db'], '')).to.equal(true);
    expect(format.matchesFilters(check, ['prod', 'web'], '')).to.equal(false);
    expect(format.matchesFilters(check, ['pro'], '')).to.equal(false);
    expect(format.matchesFilters(check, [], 'BACKUP')).to.equal(true);
    expect(format.matchesFilters(check, [], 's3')).to.equal(true);
    expect(format.matchesFilters(check, [], 'mysql')).to.equal(false);
  });

  it('shows a check with a run in progress as started unless it is down or paused', () => {
    expect(format.displayStatus({ status: 'up', started: true })).to.equal('started');
    expect(format.displayStatus({ status: 'new', started: true })).to.equal('started');
    expect(format.displayStatus({ status: 'down', started: true })).to.equal('down');
    expect(format.displayStatus({ status: 'paused', started: true })).to.equal('paused');
    expect(format.displayStatus({ status: 'grace', started: false })).to.equal('grace');
  });

  it('turns flips into up and down periods covering the window', () => {
    const day = 86400;
    const flips = [
      { timestamp: ago(10 * day), up: 0 },
      { timestamp: ago(9 * day), up: 1 },
    ];
    const periods = format.flipPeriods(flips, 'up', NOW, 30 * day);
    expect(periods.map((p: { state: string }) => p.state)).to.deep.equal(['up', 'down', 'up']);
    expect(periods[0].from.toISOString()).to.equal(ago(30 * day));
    expect(periods[2].to.toISOString()).to.equal(NOW.toISOString());
    expect(format.periodShares(periods)).to.deep.equal({ up: 96.7, down: 3.3, unknown: 0 });

    const sinceFirstPing = format.flipPeriods([{ timestamp: ago(day), up: 0 }], 'down', NOW, 30 * day, new Date(ago(2 * day)));
    expect(sinceFirstPing.map((p: { state: string }) => p.state)).to.deep.equal(['unknown', 'up', 'down']);
    expect(format.flipPeriods([], 'down', NOW, 30 * day).map((p: { state: string }) => p.state)).to.deep.equal(['down']);
    expect(format.flipPeriods([], 'new', NOW, 30 * day).map((p: { state: string }) => p.state)).to.deep.equal(['unknown']);
  });

  it('says run durations in their two largest units', () => {
    expect(format.runDuration(0.42)).to.equal('0.42 s');
    expect(format.runDuration(125)).to.equal('2 min 5 s');
    expect(format.runDuration(3720)).to.equal('1 h 2 min');
  });
});
