/**
 * Throughput with one and with two web processes behind the same Redis and MongoDB (docs/operations.md,
 * "Scaling out"): the throughput phase's ping load, its connections spread evenly over the processes (as a load
 * balancer would), once as configured and once answering from the journal (PING_ACK_MS=0). The web processes of
 * this phase run unpinned, so that a second one can use another core; the bench's one worker applies what they journal.
 */
import { inBatches, waitUntil } from './common.js';
import { peakRssMbOf, startWeb } from './processes.js';
import { load, type LoadOptions, type LoadResult } from './throughput.js';

/** Web processes under each load, in turn: alternated, so that neither count always runs on what the other left behind. */
const ORDER = [1, 2, 2, 1];
/** How long stored pings may take to catch up with the 200s after a load, milliseconds. */
const CATCH_UP_WITHIN_MS = 600_000;

/** One load's figures, with the pings stored and the web processes' peak RSS. */
export interface ScaleOutRow {
  mode: string;
  webs: number;
  result: LoadResult;
  /** Pings stored (the sum of n_pings) by the end of the catch-up; at least the 200s unless one was lost. */
  stored: number;
  /** Seconds from the load's end until every 200 was stored; undefined when not within 600 s. */
  catchUpS?: number;
  /** Peak RSS (VmHWM) of each web process so far, megabytes. */
  peakRssMb: (number | undefined)[];
}

/** What the phase needs of the bench: the web processes' environment, the ping paths, and how to count stored pings. */
export interface ScaleOutStage {
  env: Record<string, string>;
  paths: string[];
  nPings: () => Promise<number>;
  shape: LoadOptions;
}

/** Waits until the pings stored since `before` reach `count`; returns them and the milliseconds waited (undefined: not within 600 s). */
async function storedSince(stage: ScaleOutStage, before: number, count: number): Promise<{ stored: number; waitedMs?: number }> {
  const started = Date.now();
  let stored = 0;
  const caughtUp = await waitUntil(async () => (stored = (await stage.nPings()) - before) >= count, CATCH_UP_WITHIN_MS);
  return { stored, waitedMs: caughtUp ? Date.now() - started : undefined };
}

/** Loads `origins` and waits until the pings stored reach the 200s. */
async function loadAndCatchUp(stage: ScaleOutStage, origins: string[]): Promise<Omit<ScaleOutRow, 'mode' | 'webs' | 'peakRssMb'>> {
  const before = await stage.nPings();
  const result = await load(origins, stage.paths, stage.shape);
  const { stored, waitedMs } = await storedSince(stage, before, result.ok);
  return { result, stored, catchUpS: waitedMs === undefined ? undefined : waitedMs / 1000 };
}

/** Pings every check once through `origin` and waits until MongoDB has them. */
async function pingEachOnce(stage: ScaleOutStage, origin: string): Promise<void> {
  const before = await stage.nPings();
  await inBatches(stage.paths, stage.shape.connections, async (path) => void (await (await fetch(origin + path)).text()));
  await storedSince(stage, before, stage.paths.length);
}

/**
 * For each mode (as configured, then PING_ACK_MS=0): two web processes started, then the load at the first alone, at
 * both, at both again and at the first alone ({@link ORDER}); each load waits for MongoDB to catch up before the next.
 *
 * @param report - Called with each load's row as soon as it is known.
 * @throws Error when a web process does not answer within 60 s.
 */
export async function measureScaleOut(stage: ScaleOutStage, report: (row: ScaleOutRow) => void): Promise<void> {
  const modes: { mode: string; env: Record<string, string> }[] = [{ mode: 'as configured', env: {} }, { mode: 'answered from the journal (PING_ACK_MS=0)', env: { PING_ACK_MS: '0' } }];
  for (const { mode, env } of modes) {
    const webs = [await startWeb({ ...stage.env, ...env }), await startWeb({ ...stage.env, ...env })];
    try {
      // Each check pinged once through each process first, so that neither asks MongoDB whether a check exists during the load.
      for (const web of webs) await pingEachOnce(stage, web.origin);
      for (const n of ORDER) {
        const row = await loadAndCatchUp(stage, webs.slice(0, n).map((w) => w.origin));
        report({ mode, webs: n, ...row, peakRssMb: webs.slice(0, n).map((w) => peakRssMbOf(w.child)) });
      }
    } finally {
      await Promise.all(webs.map((w) => w.child.stop()));
    }
  }
}
