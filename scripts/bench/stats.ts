/**
 * Percentiles of a sample, the median of several, and trials pooled, for the bench reports.
 */

/** p50/p95/p99/max of a sample, in the sample's unit. */
export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * Nearest-rank percentiles.
 *
 * @param values - The sample (any unit; the result keeps it).
 * @throws Error on an empty sample.
 */
export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error('empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { count: sorted.length, p50: rank(50), p95: rank(95), p99: rank(99), max: sorted[sorted.length - 1] };
}

/** The median of `values` (the mean of the two middle ones of an even count, rounded). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? Math.round((sorted[middle - 1] + sorted[middle]) / 2) : sorted[Math.floor(middle)];
}

/** Runs `measure` `trials` times, one after another, and pools the samples' maxima into one summary. */
export async function trialsOf(trials: number, measure: () => Promise<Summary>): Promise<Summary> {
  const values: number[] = [];
  for (let i = 0; i < trials; i++) values.push((await measure()).max);
  return summarize(values);
}
