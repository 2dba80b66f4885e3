import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isValidSchedule, nextPingAt, scheduleKind } from '../../../shared/domain/schedule.js';

/** Written by scripts/oncalendar-fixture/generate.py from the `oncalendar` package's own answers. */
const FIXTURE = new URL('../../../../test/fixtures/oncalendar-reference.json', import.meta.url);

/** An occurrence as the package found it; `{ref, after}` when its answer was not after the start (see generate.py). */
type Step = string | null | { ref: string; after: string };

interface FixtureCase {
  expr: string;
  /** false when Healthchecks rejects the schedule; absent otherwise. */
  valid?: false;
  /** The exception the package raised instead of OnCalendarError (a 500 in the reference). */
  crash?: string;
  tz?: string;
  /** ISO instant with milliseconds: the last ping. */
  start?: string;
  next?: Step[];
}

interface Fixture {
  oncalendar: string;
  cases: FixtureCase[];
}

/**
 * Where our engine knowingly differs from the package (docs/api.md, "OnCalendar schedules"): tzdata's `Factory` is no
 * place and moment-timezone lacks it, so `12:00 Factory` reads `Factory` as a weekday and is refused.
 */
const KNOWN_VALIDITY_DIFFERENCES: readonly string[] = ['"12:00 Factory": ref accepts'];

const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
const valid = fixture.cases.filter((c) => c.valid !== false && c.expr !== '12:00 Factory');

/** Our next occurrence after `after`, as the fixture writes instants (no milliseconds); null when none. */
function ours(c: FixtureCase, after: Date): string | null {
  const next = nextPingAt({ kind: 'oncalendar', schedule: c.expr, tz: c.tz! }, after);
  return next === null ? null : next.toISOString().replace('.000Z', 'Z');
}

/** Every step where our engine answers otherwise than the package, as readable lines. */
function mismatches(): string[] {
  const out: string[] = [];
  for (const c of valid) {
    let after = new Date(c.start!);
    for (const step of c.next!) {
      const want = step !== null && typeof step === 'object' ? step.after : step;
      const got = ours(c, after);
      if (got !== want) out.push(`${JSON.stringify(c.expr)} ${c.tz} after ${after.toISOString()}: ref ${want}, ours ${got}`);
      if (want === null) break;
      after = new Date(want);
    }
  }
  return out;
}

describe(`OnCalendar engine against oncalendar ${fixture.oncalendar} (test/fixtures/oncalendar-reference.json)`, () => {
  it('holds about 3,000 schedules, valid and invalid, in several time zones', () => {
    expect(fixture.cases.length).to.be.within(2800, 3500);
    expect(new Set(valid.map((c) => c.tz)).size).to.be.at.least(10);
    expect(fixture.cases.length - valid.length).to.be.at.least(300);
    expect(fixture.cases.every((c) => scheduleKind(c.expr) === 'oncalendar')).to.equal(true);
  });

  it('accepts exactly the schedules Healthchecks accepts (and refuses those it crashes on)', () => {
    const differing = fixture.cases.filter((c) => isValidSchedule(c.expr) !== (c.valid !== false));
    const lines = differing.map((c) => `${JSON.stringify(c.expr)}: ref ${c.valid === false ? 'rejects' : 'accepts'}`);
    expect(lines).to.deep.equal(KNOWN_VALIDITY_DIFFERENCES);
  });

  it('finds the same next three occurrences as the package', () => {
    expect(mismatches()).to.deep.equal([]);
  });

  it('answers after the last ping where the package answers the first pass of a repeated wall time', () => {
    const repeated = valid.filter((c) => typeof c.next![0] === 'object' && c.next![0] !== null);
    expect(repeated).to.not.have.lengthOf(0);
    for (const c of repeated) {
      const step = c.next![0] as { ref: string; after: string };
      expect([step.ref <= c.start!, ours(c, new Date(c.start!))]).to.deep.equal([true, step.after]);
    }
  });
});
