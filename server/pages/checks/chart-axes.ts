/**
 * The duration chart's axes (views/check-charts.eta): a value axis of run lengths with round steps and units, and a
 * time axis under the bars naming when a few of the runs started, in the viewer's zone. Geometry in SVG user units of
 * the chart's fixed viewBox; durations in milliseconds.
 */
import moment from 'moment-timezone';
import { shortDuration } from '../kit/times.js';

/** A tick of an axis: where it sits (y on the value axis, x on the time axis) and its label. */
export interface Tick {
  at: number;
  text: string;
}

/** Round steps of the value axis, milliseconds, smallest first. */
const STEPS_MS = [
  100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
];
/** At most this many steps above zero. */
const MAX_STEPS = 4;

/**
 * The value axis for runs up to `longestMs`: a round top at or above it and a tick at each step from 0 up.
 *
 * @param longestMs - The longest run shown, milliseconds (0 when all took no time).
 * @returns `topMs`, what the plot's full height stands for, and `steps`, the tick values from 0 up, in milliseconds.
 */
export function valueScale(longestMs: number): { topMs: number; steps: number[] } {
  const step = STEPS_MS.find((s) => longestMs / s <= MAX_STEPS) ?? Math.ceil(longestMs / MAX_STEPS / 86_400_000) * 86_400_000;
  const count = Math.max(1, Math.ceil(longestMs / step));
  return { topMs: count * step, steps: Array.from({ length: count + 1 }, (_, i) => i * step) };
}

/** A value tick's label: "0", "30 s", "2 min", "1 h". */
export function valueLabel(ms: number): string {
  return ms === 0 ? '0' : shortDuration(ms);
}

/**
 * Labels for the time axis: when the runs at these positions started, "HH:mm" when the runs shown span less than a
 * day, "D MMM" otherwise, in `zone`.
 *
 * @param starts - The start of each labelled run with its bar's centre x.
 * @param spanMs - From the oldest shown run's start to the newest's.
 */
export function timeTicks(starts: ReadonlyArray<{ x: number; start: Date }>, spanMs: number, zone: string): Tick[] {
  const format = spanMs < 86_400_000 ? 'HH:mm' : 'D MMM';
  return starts.map(({ x, start }) => ({ at: x, text: moment(start).tz(zone).format(format) }));
}

/**
 * Which of `count` bars get a time label: the oldest, the newest and evenly between, at most `most`.
 *
 * @returns Bar indexes, ascending, without repeats.
 */
export function labelledBars(count: number, most = 5): number[] {
  if (count <= 0) return [];
  if (count === 1) return [0];
  const n = Math.min(count, most);
  return [...new Set(Array.from({ length: n }, (_, i) => Math.round((i * (count - 1)) / (n - 1))))];
}
