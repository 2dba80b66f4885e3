import { expect } from 'chai';
import { percentile, runsFromPings, runStats, type RunPing } from '../../../shared/domain/runs.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');
/** A ping `n` of `kind` at T0 + `seconds`. */
const ping = (n: number, kind: RunPing['kind'], seconds: number, rid: string | null = null): RunPing => ({ n, kind, created: new Date(T0 + seconds * 1000), rid });
const durations = (pings: RunPing[]) => runsFromPings(pings).map((run) => run.durationMs / 1000);

describe('runsFromPings', () => {
  it('pairs a success or fail with the last start before it when no rid is given', () => {
    const pings = [ping(1, 'start', 0), ping(2, 'start', 10), ping(3, 'log', 12), ping(4, 'success', 40), ping(5, 'start', 100), ping(6, 'fail', 105)];
    const runs = runsFromPings(pings);
    expect(runs.map((run) => [run.durationMs, run.outcome, run.n])).to.deep.equal([[30_000, 'success', 4], [5_000, 'fail', 6]]);
    expect(runs[0]?.start.toISOString()).to.equal('2026-11-01T00:00:10.000Z');
  });

  it('pairs concurrent rids independently (docs/checks.md, "Runs"), in any input order', () => {
    const pings = [ping(4, 'success', 360, 'B'), ping(1, 'start', 0, 'A'), ping(3, 'success', 120, 'A'), ping(2, 'start', 60, 'B')];
    expect(durations(pings)).to.deep.equal([120, 300]);
  });

  it('does not pair a null rid with a given one, nor a second end with a used start', () => {
    expect(durations([ping(1, 'start', 0, 'A'), ping(2, 'success', 10)])).to.deep.equal([]);
    expect(durations([ping(1, 'start', 0), ping(2, 'success', 10), ping(3, 'fail', 20)])).to.deep.equal([10]);
    expect(durations([ping(1, 'success', 0), ping(2, 'ign', 5), ping(3, 'log', 6)])).to.deep.equal([]);
  });

  it('leaves out a pair 72 hours or more apart, keeps one just under', () => {
    expect(durations([ping(1, 'start', 0), ping(2, 'success', 72 * 3600)])).to.deep.equal([]);
    expect(durations([ping(1, 'start', 0), ping(2, 'success', 72 * 3600 - 1)])).to.deep.equal([72 * 3600 - 1]);
  });
});

describe('percentile and runStats', () => {
  it('interpolates between the nearest ranks', () => {
    expect(percentile([], 50)).to.equal(null);
    expect(percentile([7], 95)).to.equal(7);
    expect(percentile([4, 1, 3, 2], 50)).to.equal(2.5);
    expect(percentile([1, 2, 3, 4, 5], 50)).to.equal(3);
    expect(percentile(Array.from({ length: 101 }, (_, i) => i), 95)).to.equal(95);
    expect(percentile([10, 20], 95)).to.be.closeTo(19.5, 1e-9);
  });

  it('states min, median, p95 and max of run durations in milliseconds', () => {
    const pings = [10, 20, 30, 40].flatMap((s, i) => [ping(2 * i + 1, 'start', i * 100), ping(2 * i + 2, 'success', i * 100 + s)]);
    expect(runStats(runsFromPings(pings))).to.deep.equal({ count: 4, minMs: 10_000, medianMs: 25_000, p95Ms: 38_500, maxMs: 40_000 });
    expect(runStats([])).to.equal(null);
  });
});
