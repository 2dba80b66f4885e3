import { expect } from 'chai';
import { activeUntil, coversCheck, maintenanceUntil } from '../../../shared/domain/maintenance.js';
import { maintenanceEndChange, type RuleState } from '../../../shared/domain/timer-rules.js';

const utc = (iso: string) => new Date(`${iso}Z`);
const oneOff = { start: utc('2024-03-31T00:00:00'), end: utc('2024-03-31T02:00:00'), schedule: '', tz: 'UTC', duration: 0 };
/** 02:30 every day in Riga, an hour long: on 2024-03-31 clocks go from 03:00 to 04:00 there (EEST). */
const nightly = { start: null, end: null, schedule: '30 2 * * *', tz: 'Europe/Riga', duration: 3600 };
const scope = { allChecks: false, checkIds: [] as string[], tags: [] as string[] };

describe('shared/domain/maintenance', () => {
  it('covers [start, end) of a one-off window', () => {
    expect(activeUntil(oneOff, utc('2024-03-30T23:59:59'))).to.equal(null);
    expect(activeUntil(oneOff, utc('2024-03-31T00:00:00'))).to.deep.equal(oneOff.end);
    expect(activeUntil(oneOff, utc('2024-03-31T02:00:00'))).to.equal(null);
  });

  it('covers each occurrence of a recurring window in its zone, across a DST change', () => {
    // 02:30 EET = 00:30 UTC on 30 March; 02:30 EEST = 23:30 UTC on 31 March (the day after the change).
    expect(activeUntil(nightly, utc('2024-03-30T01:00:00'))).to.deep.equal(utc('2024-03-30T01:30:00'));
    expect(activeUntil(nightly, utc('2024-03-30T01:30:00'))).to.equal(null);
    expect(activeUntil(nightly, utc('2024-04-01T00:00:00'))).to.deep.equal(utc('2024-04-01T00:30:00'));
  });

  it('covers each occurrence of an OnCalendar schedule (docs/api.md, "OnCalendar schedules")', () => {
    // Weekdays at 09:00 in Riga (EET in January, UTC+2), half an hour long; 2024-01-05 is a Friday.
    const weekdays = { ...nightly, schedule: 'Mon..Fri *-*-* 09:00', tz: 'Europe/Riga', duration: 1800 };
    expect(activeUntil(weekdays, utc('2024-01-05T07:10:00'))).to.deep.equal(utc('2024-01-05T07:30:00'));
    expect(activeUntil(weekdays, utc('2024-01-06T07:10:00'))).to.equal(null);
  });

  it('takes the latest end among overlapping occurrences and windows', () => {
    const everyMinute = { ...nightly, schedule: '* * * * *', tz: 'UTC', duration: 300 };
    expect(activeUntil(everyMinute, utc('2024-01-01T00:00:30'))).to.deep.equal(utc('2024-01-01T00:05:00'));
    const windows = [{ ...oneOff, ...scope, allChecks: true }, { ...everyMinute, ...scope, tags: ['db'] }];
    expect(maintenanceUntil(windows, { _id: 'a', tags: 'db' }, utc('2024-03-31T01:59:30'))).to.deep.equal(utc('2024-03-31T02:04:00'));
  });

  it('covers checks by "*", UUID or any tag', () => {
    expect(coversCheck({ ...scope, allChecks: true }, { _id: 'a', tags: '' })).to.equal(true);
    expect(coversCheck({ ...scope, checkIds: ['a'] }, { _id: 'a', tags: '' })).to.equal(true);
    expect(coversCheck({ ...scope, tags: ['db', 'x'] }, { _id: 'a', tags: ' prod  db ' })).to.equal(true);
    expect(coversCheck({ ...scope, tags: ['db'] }, { _id: 'a', tags: 'dbx' })).to.equal(false);
  });
});

describe('shared/domain/timer-rules maintenanceEndChange', () => {
  const held = (fields: Partial<RuleState>): RuleState => ({
    kind: 'simple', timeout: 60, grace: 60, schedule: '* * * * *', tz: 'UTC', status: 'down', lastPing: null, lastStart: null, lastStartRid: null,
    manualResume: false, deadline: null, heldUntil: utc('2024-01-01T01:00:00'), ...fields,
  });
  const end = utc('2024-01-01T01:00:01');

  it('owes one resumed alert when the window ended with the check down', () => {
    expect(maintenanceEndChange(held({}), end, null)).to.deep.equal({
      set: { heldUntil: null }, owe: [{ oldStatus: 'down', newStatus: 'down', reason: '', event: 'resumed' }],
    });
  });

  it('owes nothing to a check that recovered, and waits for a window still covering it', () => {
    expect(maintenanceEndChange(held({ status: 'up' }), end, null)).to.deep.equal({ set: { heldUntil: null }, owe: [] });
    const later = utc('2024-01-01T02:00:00');
    expect(maintenanceEndChange(held({}), end, later)).to.deep.equal({ set: { heldUntil: later }, owe: [] });
    expect(maintenanceEndChange(held({}), utc('2024-01-01T00:59:00'), utc('2024-01-01T01:00:00'))).to.equal(null);
  });

  it('follows a window changed before its end: sooner, later, or gone', () => {
    const before = utc('2024-01-01T00:30:00');
    const sooner = utc('2024-01-01T00:45:00');
    expect(maintenanceEndChange(held({}), before, sooner)).to.deep.equal({ set: { heldUntil: sooner }, owe: [] });
    expect(maintenanceEndChange(held({}), before, null)).to.deep.equal({
      set: { heldUntil: null }, owe: [{ oldStatus: 'down', newStatus: 'down', reason: '', event: 'resumed' }],
    });
    expect(maintenanceEndChange(held({ heldUntil: null }), before, null)).to.equal(null);
    expect(maintenanceEndChange(held({}), end, undefined), 'windows not read').to.equal(null);
  });
});
