/**
 * The schedule editor's preview: the next runs of a cron or OnCalendar schedule (by its shape, docs/api-reference.md, "Validation")
 * in a time zone, computed by the schedule engine the deadlines use (shared/domain/schedule.ts), after the API's own
 * validation of `schedule` and `tz`.
 */
import moment from 'moment-timezone';
import { nextPingAt, scheduleKind } from '../../../shared/domain/schedule.js';
import { checkSchema } from '../../schemas/check.js';
import { parseBody, VALIDATION_PREFIX } from '../../schemas/parse.js';
import { AppError } from '../../../shared/errors.js';
import { describeSchedule } from '../../../shared/domain/schedule-words.js';
import { relativeTime } from '../kit/times.js';

/** Runs the preview lists. */
export const PREVIEW_RUNS = 5;

/** One run: the moment (ISO 8601, UTC) and its wall time in the check's zone. */
export interface PreviewRun {
  at: string;
  local: string;
}

/**
 * The preview: the runs, the schedule in words (null when shared/domain/schedule-words.ts does not describe its
 * shape) and how far off the first run is (`in 5 hours`, '' when none); or the API's message and the field it is about.
 */
export type Preview = { runs: PreviewRun[]; tz: string; words: string | null; nextIn: string } | { error: string; field: string };

/** The next {@link PREVIEW_RUNS} runs of `schedule` in `tz` strictly after `now`, with its description, or the API's validation message. */
export function previewRuns(schedule: unknown, tz: unknown, now: Date): Preview {
  let input: { schedule?: string; tz?: string };
  try {
    input = parseBody(checkSchema, { schedule, tz });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = err.message.slice(VALIDATION_PREFIX.length);
    return { error: message, field: message.split(' ', 1)[0] };
  }
  const expr = input.schedule ?? '';
  const spec = { kind: scheduleKind(expr), schedule: expr, tz: input.tz ?? 'UTC' };
  const runs: PreviewRun[] = [];
  for (let at: Date | null = now; runs.length < PREVIEW_RUNS; ) {
    at = nextPingAt(spec, at);
    if (!at) break;
    runs.push({ at: at.toISOString(), local: moment.tz(at, spec.tz).format('ddd YYYY-MM-DD HH:mm z') });
  }
  const nextIn = runs.length > 0 ? relativeTime(new Date(runs[0].at), now) : '';
  return { runs, tz: spec.tz, words: describeSchedule(expr), nextIn };
}
