/**
 * The bench's `schedules` phase: the CPU time of the schedule engines (docs/benchmarks.md), without any service. For
 * every valid case of the cron and OnCalendar differential fixtures it times `nextPingAt` from the case's start and
 * from each occurrence found (up to three calls per case, as a check's deadline is computed on each ping), each call
 * run 5 times and its median kept, expressions already parsed (the engine caches them); and `isValidSchedule` (parse
 * and search from 2000-01-01, as the API validates), per expression, valid or not, also the median of 5 runs.
 */
import { readFileSync } from 'node:fs';
import { isValidSchedule, nextPingAt, type ScheduleSpec } from '../../shared/domain/schedule.js';
import { median, summarize } from './stats.js';
import type { Out } from './common.js';

const RUNS = 5;
const NS_PER_US = 1000;

interface FixtureCase {
  expr: string;
  valid?: false;
  tz?: string;
  start?: string;
}

function casesOf(file: string): FixtureCase[] {
  const url = new URL(`../../../test/fixtures/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: FixtureCase[] }).cases;
}

/** Microseconds one call takes. */
function timeUs(call: () => unknown): number {
  const begin = process.hrtime.bigint();
  call();
  return Number(process.hrtime.bigint() - begin) / NS_PER_US;
}

/** Median-of-5 µs of each next-occurrence call over the fixture's cases both sides accept (after one untimed pass). */
function nextTimes(kind: 'cron' | 'oncalendar', cases: FixtureCase[]): number[] {
  const times: number[] = [];
  for (const pass of ['warm', 'timed']) {
    for (const c of cases) {
      if (c.valid === false || !isValidSchedule(c.expr)) continue;
      const spec: ScheduleSpec = { kind, schedule: c.expr, tz: c.tz! };
      let after: Date | null = new Date(c.start!);
      for (let step = 0; step < 3 && after; step++) {
        const from: Date = after;
        if (pass === 'timed') times.push(median(Array.from({ length: RUNS }, () => timeUs(() => nextPingAt(spec, from)))));
        after = nextPingAt(spec, from);
      }
    }
  }
  return times;
}

function line(what: string, times: number[]): string {
  const s = summarize(times);
  return `| ${what} | ${s.count} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`;
}

/**
 * Prints the phase's table: per engine, next occurrence and validation, median, p99 and worst µs.
 * @throws Error if a fixture file is missing (both are committed under test/fixtures/).
 */
export function reportSchedules(out: Out): void {
  const cron = casesOf('cron-cronsim.json');
  const calendar = casesOf('oncalendar-reference.json');
  const validate = (cases: FixtureCase[]): number[] =>
    cases.map((c) => median(Array.from({ length: RUNS }, () => timeUs(() => isValidSchedule(c.expr)))));
  validate([...cron, ...calendar]);
  out('\n## Schedule engines (µs per call, this process, one core)\n');
  out('| call | calls | median µs | p99 µs | worst µs |\n|---|---|---|---|---|');
  out(line('cron: next match (cron-cronsim.json)', nextTimes('cron', cron)));
  out(line('OnCalendar: next occurrence (oncalendar-reference.json)', nextTimes('oncalendar', calendar)));
  out(line('cron: validate', validate(cron)));
  out(line('OnCalendar: validate', validate(calendar)));
}
