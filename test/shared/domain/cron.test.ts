import { expect } from 'chai';
import { CronSyntaxError, parseCron } from '../../../shared/domain/cron.js';
import { isValidCron, nextPingAt } from '../../../shared/domain/schedule.js';

/** The first `count` matches in UTC after `after`, as ISO strings without milliseconds. */
function utcMatches(schedule: string, after: string, count: number): string[] {
  const out: string[] = [];
  let lastPing = new Date(after);
  for (let i = 0; i < count; i++) {
    const next = nextPingAt({ kind: 'cron', schedule, tz: 'UTC' }, lastPing);
    if (!next) break;
    out.push(next.toISOString().replace('.000Z', 'Z'));
    lastPing = next;
  }
  return out;
}

/** Just the dates of {@link utcMatches}. */
function utcDays(schedule: string, after: string, count: number): string[] {
  return utcMatches(schedule, after, count).map((iso) => iso.slice(0, 10));
}

describe('cron syntax (docs/checks.md, "Cron in detail")', () => {
  const valid: Record<string, string> = {
    'every field *': '* * * * *',
    'the lowest value of each field': '0 0 1 1 0',
    'the highest value of each field': '59 23 31 12 7',
    'a range': '0 9-17 * * *',
    'a range of one value': '5-5 * * * *',
    'steps */n, a-b/n and a/n': '*/15 1-23/2 5/10 * *',
    'a step larger than the field': '*/100 * * * *',
    'a comma list mixing values, ranges and steps': '0,5-7,*/20 * * * *',
    'month names in any case': '0 0 1 jan,Feb,MAR-apr,dec *',
    'day names in any case': '0 0 * * sun,Mon,TUE-fri,SAT',
    'a step from a name': '0 0 1 FEB/3 MON/2',
    'DOM L and LW': '0 0 L,LW * *',
    'DOW nL and n#k, also with 0 and 7': '0 0 * * 5L,0L,7L,1#1,MON#5,7#2',
    'leading zeros': '00 05 01 01 00',
    '29 February': '0 0 29 2 *',
    'day 31 when one listed month has 31 days': '0 0 31 4,5 *',
  };
  for (const [what, expr] of Object.entries(valid)) {
    it(`accepts ${what}: ${expr}`, () => {
      expect(isValidCron(expr)).to.equal(true);
    });
  }

  const invalid: Record<string, string> = {
    'minute 60': '60 * * * *',
    'hour 24': '0 24 * * *',
    'day-of-month 0': '0 0 0 * *',
    'day-of-month 32': '0 0 32 * *',
    'month 0': '0 0 1 0 *',
    'month 13': '0 0 1 13 *',
    'day-of-week 8': '0 0 * * 8',
    'a descending range': '0 0 * * 5-1',
    'a range with three ends': '1-2-3 * * * *',
    'a range from *': '*-5 * * * *',
    'step 0': '*/0 * * * *',
    'a step without a number': '*/ * * * *',
    'a step without a start': '/5 * * * *',
    'two steps': '*/2/3 * * * *',
    'an empty list item': '1,,2 * * * *',
    'a trailing comma': '1, * * * *',
    'a negative number': '-1 * * * *',
    'a signed number': '+1 * * * *',
    'a decimal': '1.5 * * * *',
    '?': '0 0 ? * *',
    'H': 'H * * * *',
    'a macro': '@daily * * * *',
    'W alone': '0 0 W * *',
    'a month name in the day-of-week field': '0 0 * * JAN',
    'a day name in the month field': '0 0 1 MON *',
    'a full month name': '0 0 1 JANUARY *',
    'L in the minute field': 'L * * * *',
    'nL in the day-of-month field': '0 0 5L * *',
    'L alone in the day-of-week field': '0 0 * * L',
    'a day name before L': '0 0 * * FRIL',
    '8L': '0 0 * * 8L',
    'n#k in the day-of-month field': '0 0 1#2 * *',
    'k = 0': '0 0 * * 1#0',
    'k = 6': '0 0 * * 1#6',
    'a range before #': '0 0 * * 1-3#2',
    'a day February never has': '0 0 30 2 *',
    'day 31 in months of 30 days': '0 0 31 4,6,9,11 *',
    'days 30–31 in February, even with a day of week': '0 0 30,31 2 MON',
  };
  for (const [what, expr] of Object.entries(invalid)) {
    it(`rejects ${what}: ${expr}`, () => {
      expect(isValidCron(expr)).to.equal(false);
    });
  }

  it('reports the offending field', () => {
    expect(() => parseCron('0 0 * 13 *')).to.throw(CronSyntaxError, 'Bad month');
  });
});

describe('cron matching (docs/checks.md, "Cron in detail")', () => {
  it('*/n runs from the field minimum', () => {
    expect(utcMatches('*/20 * * * *', '2024-05-05T10:41:00Z', 3)).to.deep.equal([
      '2024-05-05T11:00:00Z',
      '2024-05-05T11:20:00Z',
      '2024-05-05T11:40:00Z',
    ]);
  });

  it('a/n runs from a to the field maximum', () => {
    expect(utcMatches('50/5 * * * *', '2024-05-05T10:00:00Z', 3)).to.deep.equal([
      '2024-05-05T10:50:00Z',
      '2024-05-05T10:55:00Z',
      '2024-05-05T11:50:00Z',
    ]);
  });

  it('a one-value range a-a/n runs to the field maximum, as cronsim reads it', () => {
    expect(utcMatches('50-50/5 * * * *', '2024-05-05T10:00:00Z', 3)).to.deep.equal([
      '2024-05-05T10:50:00Z',
      '2024-05-05T10:55:00Z',
      '2024-05-05T11:50:00Z',
    ]);
  });

  it('a-b/n stays within a-b', () => {
    expect(utcMatches('10-20/7 * * * *', '2024-05-05T10:00:00Z', 3)).to.deep.equal([
      '2024-05-05T10:10:00Z',
      '2024-05-05T10:17:00Z',
      '2024-05-05T11:10:00Z',
    ]);
  });

  it('a step over the day-of-week field reaches 7, Sunday', () => {
    expect(utcDays('0 0 * * 1/2', '2024-05-05T00:00:00Z', 4)).to.deep.equal([
      '2024-05-06', '2024-05-08', '2024-05-10', '2024-05-12',
    ]);
  });

  it('0 and 7 both mean Sunday', () => {
    expect(utcDays('0 0 * * 0', '2024-05-01T00:00:00Z', 2)).to.deep.equal(['2024-05-05', '2024-05-12']);
    expect(utcDays('0 0 * * 7', '2024-05-01T00:00:00Z', 2)).to.deep.equal(['2024-05-05', '2024-05-12']);
  });

  it('month names select their months', () => {
    expect(utcDays('0 0 1 jun,Dec *', '2024-01-01T00:00:00Z', 3)).to.deep.equal(['2024-06-01', '2024-12-01', '2025-06-01']);
  });

  it('L is the last day of each month, 29 February in a leap year', () => {
    expect(utcDays('0 0 L * *', '2024-01-15T00:00:00Z', 3)).to.deep.equal(['2024-01-31', '2024-02-29', '2024-03-31']);
  });

  it('LW is the last Monday–Friday of each month', () => {
    expect(utcDays('0 0 LW * *', '2024-03-01T00:00:00Z', 3)).to.deep.equal(['2024-03-29', '2024-04-30', '2024-05-31']);
  });

  it('nL is the last such weekday of the month', () => {
    expect(utcDays('0 0 * * 5L', '2024-01-01T00:00:00Z', 3)).to.deep.equal(['2024-01-26', '2024-02-23', '2024-03-29']);
  });

  it('n#k is the k-th such weekday, and months without a fifth are skipped', () => {
    expect(utcDays('0 0 * * MON#5', '2024-01-01T00:00:00Z', 3)).to.deep.equal(['2024-01-29', '2024-04-29', '2024-07-29']);
  });

  it('29 February matches only in leap years', () => {
    expect(utcDays('0 0 29 2 *', '2000-01-01T00:00:00Z', 3)).to.deep.equal(['2000-02-29', '2004-02-29', '2008-02-29']);
  });

  it('skips 2100, which is not a leap year', () => {
    expect(utcDays('0 0 29 2 *', '2097-01-01T00:00:00Z', 1)).to.deep.equal(['2104-02-29']);
  });

  it('restricted day-of-month and day-of-week: either matches (OR)', () => {
    expect(utcDays('0 0 13 * FRI', '2024-10-01T00:00:00Z', 4)).to.deep.equal([
      '2024-10-04', '2024-10-11', '2024-10-13', '2024-10-18',
    ]);
  });

  it('a day range with a weekday is still OR, as in Vixie cron', () => {
    expect(utcDays('0 0 1-3 * MON', '2024-06-01T00:00:00Z', 4)).to.deep.equal([
      '2024-06-02', '2024-06-03', '2024-06-10', '2024-06-17',
    ]);
  });

  it('a day-of-month starting with * makes both fields match (AND)', () => {
    expect(utcDays('0 0 */2 * MON', '2023-12-31T00:00:00Z', 3)).to.deep.equal(['2024-01-01', '2024-01-15', '2024-01-29']);
  });

  it('a day-of-week starting with * makes both fields match (AND)', () => {
    expect(utcDays('0 0 13 * */3', '2024-01-01T00:00:00Z', 2)).to.deep.equal(['2024-01-13', '2024-03-13']);
  });
});
