import { expect } from 'chai';
import moment from 'moment-timezone';
import { hasCronShape, isValidCron, nextPingAt } from '../../../shared/domain/schedule.js';

/** The first `count` cron matches after `after`, each the last ping of the next, as local ISO times. */
function matches(schedule: string, tz: string, after: string, count: number): string[] {
  const out: string[] = [];
  let lastPing = new Date(after);
  for (let i = 0; i < count; i++) {
    const next = nextPingAt({ kind: 'cron', schedule, tz }, lastPing);
    if (!next) break;
    out.push(moment(next).tz(tz).format());
    lastPing = next;
  }
  return out;
}

describe('nextPingAt', () => {
  describe('simple checks', () => {
    it('adds the timeout in seconds to the last ping', () => {
      const next = nextPingAt({ kind: 'simple', timeout: 86400 }, new Date('2024-01-01T10:00:00.500Z'));
      expect(next?.toISOString()).to.equal('2024-01-02T10:00:00.500Z');
    });
  });

  describe('cron checks (docs/checks.md, "Cron in detail")', () => {
    it('gives the next matching minute, seconds 0', () => {
      expect(matches('*/15 * * * *', 'UTC', '2024-05-05T10:11:12.345Z', 2)).to.deep.equal([
        '2024-05-05T10:15:00Z',
        '2024-05-05T10:30:00Z',
      ]);
    });

    it('is strictly after a last ping that falls exactly on a match', () => {
      expect(matches('0 12 * * *', 'UTC', '2024-05-05T12:00:00.000Z', 1)).to.deep.equal(['2024-05-06T12:00:00Z']);
    });

    it('is strictly after a last ping a few seconds into a matching minute', () => {
      expect(matches('* * * * *', 'UTC', '2024-05-05T12:00:59.999Z', 1)).to.deep.equal(['2024-05-05T12:01:00Z']);
    });

    it('evaluates the expression on the wall clock of tz and returns the absolute moment', () => {
      const next = nextPingAt({ kind: 'cron', schedule: '0 9 * * *', tz: 'Asia/Tokyo' }, new Date('2024-05-05T00:30:00Z'));
      expect(next?.toISOString()).to.equal('2024-05-06T00:00:00.000Z');
    });

    it('works in a zone with a quarter-hour offset', () => {
      expect(matches('0 0 * * *', 'Asia/Kathmandu', '2024-05-05T12:00:00Z', 1)).to.deep.equal([
        '2024-05-06T00:00:00+05:45',
      ]);
    });

    it('returns null for an expression with no match within 50 years', () => {
      expect(nextPingAt({ kind: 'cron', schedule: '0 0 */31 * 1#5', tz: 'UTC' }, new Date('2024-01-01T00:00:00Z'))).to.equal(
        null,
      );
    });

    it('finds a match that is decades away', () => {
      expect(matches('0 0 */28 2 1#5', 'UTC', '2016-03-01T00:00:00Z', 1)).to.deep.equal(['2044-02-29T00:00:00Z']);
    });

    it('throws for an expression that does not parse', () => {
      expect(() => nextPingAt({ kind: 'cron', schedule: '61 * * * *', tz: 'UTC' }, new Date())).to.throw('Bad minute');
    });

    it('throws for an unknown tz', () => {
      expect(() => nextPingAt({ kind: 'cron', schedule: '* * * * *', tz: 'Mars/Base' }, new Date())).to.throw(
        'unknown time zone',
      );
    });
  });

  describe('DST, specific-time jobs (docs/checks.md, "Cron in detail")', () => {
    it('Europe/Riga: 0 3 * * * on 28 Mar 2021 fires at the end of the gap, 04:00+03:00', () => {
      expect(matches('0 3 * * *', 'Europe/Riga', '2021-03-27T12:00:00Z', 2)).to.deep.equal([
        '2021-03-28T04:00:00+03:00',
        '2021-03-29T03:00:00+03:00',
      ]);
    });

    it('Europe/Riga: 30 1,2,3,4,5 * * * on 31 Oct 2021 fires 03:30 only once', () => {
      expect(matches('30 1,2,3,4,5 * * *', 'Europe/Riga', '2021-10-30T23:00:00Z', 3)).to.deep.equal([
        '2021-10-31T02:30:00+03:00',
        '2021-10-31T03:30:00+03:00',
        '2021-10-31T04:30:00+02:00',
      ]);
    });

    it('Europe/Riga: several matches inside the gap fire once, at its end', () => {
      expect(matches('0,30 3 * * *', 'Europe/Riga', '2021-03-27T12:00:00Z', 2)).to.deep.equal([
        '2021-03-28T04:00:00+03:00',
        '2021-03-29T03:00:00+03:00',
      ]);
    });

    it('Europe/Riga: a last ping in the repeated hour does not fire its first occurrence again', () => {
      expect(matches('30 1,2,3,4,5 * * *', 'Europe/Riga', '2021-10-31T03:10:00+02:00', 1)).to.deep.equal([
        '2021-10-31T04:30:00+02:00',
      ]);
    });

    it('America/New_York: 30 2 * * * on 14 Mar 2021 fires at the first real minute after the gap', () => {
      expect(matches('30 2 * * *', 'America/New_York', '2021-03-13T12:00:00Z', 2)).to.deep.equal([
        '2021-03-14T03:00:00-04:00',
        '2021-03-15T02:30:00-04:00',
      ]);
    });

    it('America/New_York: 30 1 * * * on 7 Nov 2021 fires once, in daylight time', () => {
      expect(matches('30 1 * * *', 'America/New_York', '2021-11-06T12:00:00Z', 2)).to.deep.equal([
        '2021-11-07T01:30:00-04:00',
        '2021-11-08T01:30:00-05:00',
      ]);
    });

    it('Australia/Sydney: 30 2 * * * on 2 Oct 2022 fires at 03:00+11:00', () => {
      expect(matches('30 2 * * *', 'Australia/Sydney', '2022-10-01T00:00:00Z', 1)).to.deep.equal([
        '2022-10-02T03:00:00+11:00',
      ]);
    });

    it('Australia/Sydney: 30 2 * * * on 3 Apr 2022 fires once, before the clocks go back', () => {
      expect(matches('30 2 * * *', 'Australia/Sydney', '2022-04-02T00:00:00Z', 2)).to.deep.equal([
        '2022-04-03T02:30:00+11:00',
        '2022-04-04T02:30:00+10:00',
      ]);
    });

    it('treats an hour range with a step (0-23/3) as specific-time', () => {
      expect(matches('0 0-23/3 * * *', 'Europe/London', '2021-03-27T23:30:00Z', 2)).to.deep.equal([
        '2021-03-28T00:00:00Z',
        '2021-03-28T03:00:00+01:00',
      ]);
    });
  });

  describe('DST, interval jobs (docs/checks.md, "Cron in detail")', () => {
    it('Europe/Riga: 0 * * * * fires at 03:00 twice on 31 Oct 2021', () => {
      expect(matches('0 * * * *', 'Europe/Riga', '2021-10-31T02:30:00+03:00', 3)).to.deep.equal([
        '2021-10-31T03:00:00+03:00',
        '2021-10-31T03:00:00+02:00',
        '2021-10-31T04:00:00+02:00',
      ]);
    });

    it('Europe/Riga: */30 * * * * never fires in the skipped hour on 28 Mar 2021', () => {
      expect(matches('*/30 * * * *', 'Europe/Riga', '2021-03-28T02:00:00+02:00', 2)).to.deep.equal([
        '2021-03-28T02:30:00+02:00',
        '2021-03-28T04:00:00+03:00',
      ]);
    });

    it('America/New_York: 30 * * * * fires at 01:30 twice on 7 Nov 2021', () => {
      expect(matches('30 * * * *', 'America/New_York', '2021-11-07T00:45:00-04:00', 3)).to.deep.equal([
        '2021-11-07T01:30:00-04:00',
        '2021-11-07T01:30:00-05:00',
        '2021-11-07T02:30:00-05:00',
      ]);
    });

    it('America/New_York: 0 */2 * * * skips the missing 02:00 on 14 Mar 2021', () => {
      expect(matches('0 */2 * * *', 'America/New_York', '2021-03-14T01:30:00-05:00', 2)).to.deep.equal([
        '2021-03-14T04:00:00-04:00',
        '2021-03-14T06:00:00-04:00',
      ]);
    });

    it('Europe/London: * 1 * * * has no 01:xx on 28 Mar 2021', () => {
      expect(matches('* 1 * * *', 'Europe/London', '2021-03-28T00:59:00Z', 1)).to.deep.equal([
        '2021-03-29T01:00:00+01:00',
      ]);
    });

    it('Australia/Lord_Howe: 0 */3 * * * keeps 03:00 after a half-hour fall-back', () => {
      expect(matches('0 */3 * * *', 'Australia/Lord_Howe', '2022-04-02T14:00:00Z', 2)).to.deep.equal([
        '2022-04-03T03:00:00+10:30',
        '2022-04-03T06:00:00+10:30',
      ]);
    });
  });
});

describe('isValidCron and hasCronShape (docs/checks.md, "Cron in detail"; docs/api-reference.md, "Validation")', () => {
  for (const expr of ['', '   ', '* * * *', '* * * * * *', '* * * * *\n', '* * *\n* *']) {
    it(`rejects ${JSON.stringify(expr)}: not a single line of 5 fields`, () => {
      expect(hasCronShape(expr)).to.equal(false);
      expect(isValidCron(expr)).to.equal(false);
    });
  }

  it('accepts any run of spaces and tabs between and around the fields', () => {
    expect(hasCronShape('  0\t0  * *   * ')).to.equal(true);
    expect(isValidCron('  0\t0  * *   * ')).to.equal(true);
  });

  it('rejects an expression with no match within 50 years of 2000', () => {
    expect(hasCronShape('0 0 */30 * 1#2')).to.equal(true);
    expect(isValidCron('0 0 */30 * 1#2')).to.equal(false);
  });

  it('accepts an expression whose first match is 16 years after 2000', () => {
    expect(isValidCron('0 0 */28 2 1#5')).to.equal(true);
  });
});
