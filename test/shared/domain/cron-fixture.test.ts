import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isValidCron, nextPingAt } from '../../../shared/domain/schedule.js';

/** Written by scripts/cron-fixture/generate.py from cronsim's own answers. */
const FIXTURE = new URL('../../../../test/fixtures/cron-cronsim.json', import.meta.url);

/** A match as cronsim found it; `{cronsim, after}` when its answer was not after the start (see generate.py). */
type Step = string | null | { cronsim: string; after: string };

interface FixtureCase {
  expr: string;
  /** false when Healthchecks rejects the expression; absent otherwise. */
  valid?: false;
  tz?: string;
  /** ISO instant with milliseconds: the last ping. */
  start?: string;
  next?: Step[];
}

interface Fixture {
  cronsim: string;
  cases: FixtureCase[];
}

/**
 * Where our engine knowingly differs from cronsim, in real-time matching (docs/checks.md, "Cron in detail")
 * across a DST change that is not a whole hour away from midnight. cronsim steps
 * whole hours from a :00 it reached on the old clock, and starts a day at its
 * 00:00 even when the change skipped that midnight; so it skips wall minutes that
 * exist (Lord Howe's 30-minute shift; Havana after a skipped midnight) or fires a
 * 00:xx that did not exist (Santiago, Havana). Rule 8 says every real wall minute
 * that matches fires and skipped ones never do, which is what ours does.
 * Each entry: expression, zone, after, cronsim's answer, ours.
 */
const KNOWN_DIFFERENCES: readonly string[] = [
  '"* 19-19/3 * * */90,*/2" Australia/Lord_Howe after 2030-04-06T14:30:09.300Z: cronsim 2030-04-07T09:00:00Z, ours 2030-04-07T08:30:00Z',
  '"* 5-9 *,27-27 * *,WED#5" Australia/Lord_Howe after 2012-10-06T14:14:13.985Z: cronsim 2012-10-06T18:30:00Z, ours 2012-10-06T18:00:00Z',
  '"* */2 */7,12-12/7 JUL-Nov */1" America/Santiago after 2018-08-12T02:36:31.216Z: cronsim 2018-08-12T04:00:00Z, ours 2018-08-12T05:00:00Z',
  '"*,2/3,27-30\\t*/6\\t*\\t4-12\\t*" America/Havana after 2012-04-01T02:06:14.164Z: cronsim 2012-04-01T05:00:00Z, ours 2012-04-01T10:00:00Z',
  '"53-53/12 * 5-12 */1 *" Australia/Lord_Howe after 2024-04-06T14:53:00.000Z: cronsim 2024-04-06T16:23:00Z, ours 2024-04-06T15:23:00Z',
  '"* 13/2,7 6-6 */6,*/3 *" Australia/Lord_Howe after 2025-01-23T19:45:56.544Z: cronsim 2025-04-05T21:00:00Z, ours 2025-04-05T20:30:00Z',
  '"* 4-4/90 * * */2" Australia/Lord_Howe after 2013-10-05T13:22:51.736Z: cronsim 2013-10-05T17:30:00Z, ours 2013-10-05T17:00:00Z',
  '"41-51/12 * * * */5" Australia/Lord_Howe after 2021-10-02T15:11:00.000Z: cronsim 2021-10-02T16:41:00Z, ours 2021-10-02T15:41:00Z',
  '"* 5 * * *" Australia/Lord_Howe after 2027-10-02T15:15:30.811Z: cronsim 2027-10-02T18:30:00Z, ours 2027-10-02T18:00:00Z',
  '"*/15 0,*/45,14/20 * * *" Australia/Lord_Howe after 2014-10-04T14:45:12.742Z: cronsim 2014-10-05T03:30:00Z, ours 2014-10-05T03:00:00Z',
  '"* 1-2 * * 4#3,Wed,0-3/3" America/Havana after 2030-03-10T04:41:11.281Z: cronsim 2030-03-10T06:00:00Z, ours 2030-03-10T05:00:00Z',
];

const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
const valid = fixture.cases.filter((c) => c.valid !== false);

/** Our next match after `after`, as the fixture writes instants (no milliseconds); null when none. */
function ours(c: FixtureCase, after: Date): string | null {
  const next = nextPingAt({ kind: 'cron', schedule: c.expr, tz: c.tz! }, after);
  return next === null ? null : next.toISOString().replace('.000Z', 'Z');
}

/** Every step where our engine answers otherwise than `expected` says, as readable lines. */
function mismatches(expected: (step: Step) => string | null): string[] {
  const out: string[] = [];
  for (const c of valid) {
    let after = new Date(c.start!);
    for (const step of c.next!) {
      const want = expected(step);
      const got = ours(c, after);
      if (got !== want) out.push(`${JSON.stringify(c.expr)} ${c.tz} after ${after.toISOString()}: cronsim ${want}, ours ${got}`);
      if (want === null) break;
      after = new Date(want);
    }
  }
  return out;
}

describe(`cron engine against cronsim ${fixture.cronsim} (test/fixtures/cron-cronsim.json)`, () => {
  it('holds about 3,000 expressions, valid and invalid, in several time zones', () => {
    expect(fixture.cases.length).to.be.within(2800, 3500);
    expect(new Set(valid.map((c) => c.tz)).size).to.be.at.least(10);
    expect(fixture.cases.length - valid.length).to.be.at.least(200);
  });

  it('accepts exactly the expressions Healthchecks accepts', () => {
    const differing = fixture.cases.filter((c) => isValidCron(c.expr) !== (c.valid !== false));
    expect(differing.map((c) => `${JSON.stringify(c.expr)}: cronsim ${c.valid === false ? 'rejects' : 'accepts'}`)).to.deep.equal([]);
  });

  it('finds the same next three matches as cronsim, but for the known DST differences', () => {
    const found = mismatches((step) => (step !== null && typeof step === 'object' ? step.after : step));
    expect(found).to.deep.equal(KNOWN_DIFFERENCES);
  });


  it('answers after the last ping where cronsim answers the first pass of a repeated wall hour (docs/checks.md, "Cron in detail")', () => {
    const repeated = valid.filter((c) => typeof c.next![0] === 'object' && c.next![0] !== null);
    expect(repeated).to.not.have.lengthOf(0);
    for (const c of repeated) {
      const step = c.next![0] as { cronsim: string; after: string };
      expect([step.cronsim <= c.start!, ours(c, new Date(c.start!))]).to.deep.equal([true, step.after]);
    }
  });
});
