import { expect } from 'chai';
import { OnCalendarSyntaxError, parseOnCalendar } from '../../../shared/domain/oncalendar.js';
import { isValidOnCalendar, isValidSchedule, nextPingAt, scheduleKind } from '../../../shared/domain/schedule.js';

/** The first `count` occurrences after `after` in `tz`, as ISO instants without milliseconds. */
function occurrences(schedule: string, tz: string, after: string, count = 3): string[] {
  const out: string[] = [];
  let at: Date | null = new Date(after);
  while (out.length < count && (at = nextPingAt({ kind: 'oncalendar', schedule, tz }, at))) {
    out.push(at.toISOString().replace('.000Z', 'Z'));
  }
  return out;
}

describe('OnCalendar syntax (docs/api.md, "OnCalendar schedules", systemd.time(7) as the oncalendar package reads it)', () => {
  const valid: Record<string, string> = {
    'a time alone': '12:34',
    'weekday range, date, time': 'Mon..Fri *-*-* 09:00',
    'weekday names in any case, full or short, with - ranges and a trailing comma': 'monday,TUE-thu,Sunday, 08:00',
    'lists, ranges and repetitions in every component': '2024..2030/2-1,4..6-1/10 8..18/2:0,30:0/15',
    'month~day, the last days of the month': '*-*~01..03/1',
    'a two-digit year': '24-12-25',
    'every shorthand, in any case': 'Quarterly',
    'a zone suffix': '09:00 Europe/Riga',
    'several lines': 'Mon 09:00\nFri 17:00:30',
    'a date with no future occurrence, still after 2000': '2001-01-01',
  };
  for (const [what, expr] of Object.entries(valid)) {
    it(`accepts ${what}: ${JSON.stringify(expr)}`, () => {
      expect(isValidOnCalendar(expr)).to.equal(true);
    });
  }

  const invalid: Record<string, string> = {
    'an empty schedule': '',
    'hour 24': '24:00',
    'a * inside a list': '*,5:00',
    'a zero repetition': '*:0/0',
    'decimal seconds (systemd takes them, the reference does not)': '05:40:23.42',
    'more than 28 days back from the month end': '*-*~29',
    'a descending range': 'Fri..Mon 12:00',
    'an unknown weekday': 'Mo 12:00',
    'a blank line between two expressions': '09:00\n\n17:00',
    'a date that never exists': '*-02-30',
    'nothing after 2000-01-01': '1999-12-31',
    'a zone in the wrong case (read as a weekday)': '12:00 europe/riga',
  };
  for (const [what, expr] of Object.entries(invalid)) {
    it(`refuses ${what}: ${JSON.stringify(expr)}`, () => {
      expect(isValidOnCalendar(expr)).to.equal(false);
    });
  }

  it('throws OnCalendarSyntaxError naming the part', () => {
    expect(() => parseOnCalendar('12:60')).to.throw(OnCalendarSyntaxError, 'Bad minute');
    expect(() => parseOnCalendar('1-2-3-4')).to.throw(OnCalendarSyntaxError, 'Bad date');
  });

  it('takes one line of exactly 5 fields as cron, anything else as OnCalendar (docs/api-reference.md, "Validation")', () => {
    expect(['0 9 * * 1-5', '12:34', 'Mon *-*-* 09:00', '* * * * *\n0 0 * * *'].map(scheduleKind)).to.deep.equal(['cron', 'oncalendar', 'oncalendar', 'oncalendar']);
    expect(isValidSchedule('Mon..Fri *-*-* 09:00')).to.equal(true);
    expect(isValidSchedule('* * * * * *')).to.equal(false);
  });
});

describe('OnCalendar occurrences', () => {
  it('finds weekday mornings strictly after the last ping', () => {
    expect(occurrences('Mon..Fri *-*-* 09:00', 'UTC', '2024-05-03T09:00:00Z')).to.deep.equal(['2024-05-06T09:00:00Z', '2024-05-07T09:00:00Z', '2024-05-08T09:00:00Z']);
  });

  it('counts month~day from the end of each month, leap years included', () => {
    expect(occurrences('*-*~01 12:00', 'UTC', '2024-01-31T12:00:00Z')).to.deep.equal(['2024-02-29T12:00:00Z', '2024-03-31T12:00:00Z', '2024-04-30T12:00:00Z']);
  });

  it('matches seconds', () => {
    expect(occurrences('*:*:0/20', 'UTC', '2024-01-01T00:00:05Z')).to.deep.equal(['2024-01-01T00:00:20Z', '2024-01-01T00:00:40Z', '2024-01-01T00:01:00Z']);
  });

  it('takes the union of the lines, each in its own zone suffix or else the check tz', () => {
    expect(occurrences('12:00 Asia/Tokyo\n13:00', 'Europe/Riga', '2024-01-01T00:00:00Z')).to.deep.equal(['2024-01-01T03:00:00Z', '2024-01-01T11:00:00Z', '2024-01-02T03:00:00Z']);
  });

  it('America/New_York: skips 02:30 on the spring-forward day (the reference never fires it)', () => {
    expect(occurrences('*-*-* 02:30', 'America/New_York', '2024-03-09T12:00:00Z', 2)).to.deep.equal(['2024-03-11T06:30:00Z', '2024-03-12T06:30:00Z']);
  });

  it('America/New_York: fires a repeated 01:30 once, at its first pass', () => {
    expect(occurrences('*-*-* 01:30', 'America/New_York', '2024-11-03T04:00:00Z', 2)).to.deep.equal(['2024-11-03T05:30:00Z', '2024-11-04T06:30:00Z']);
  });

  it('answers after a last ping in the second pass of a repeated hour (the reference answers its first pass: docs/api.md)', () => {
    expect(occurrences('*:*:00', 'Europe/Riga', '2021-10-31T01:10:00Z', 1)).to.deep.equal(['2021-10-31T02:00:00Z']);
  });

  it('has no next occurrence once the last one passed, so the check is never late', () => {
    expect(occurrences('2001-01-01', 'UTC', '2024-01-01T00:00:00Z')).to.deep.equal([]);
  });

  it('bounds the search: a schedule that never matches is refused at once, 50 lines of it too', () => {
    const schedule = Array.from({ length: 50 }, () => '*-02-30').join('\n');
    const begin = process.hrtime.bigint();
    expect(isValidOnCalendar(schedule)).to.equal(false);
    expect(occurrences('Mon *-02-29 23:59:59', 'UTC', '2024-03-01T00:00:00Z', 1)).to.deep.equal(['2044-02-29T23:59:59Z']);
    // The bench measures one call well under 1 ms; 50 ms leaves room for a loaded machine and a cold JIT.
    expect(Number(process.hrtime.bigint() - begin) / 1e6).to.be.below(50);
  });
});
