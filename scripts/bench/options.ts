/**
 * `npm run bench`'s command line (docs/benchmarks.md): the options, their defaults, and the reference
 * Healthchecks when one is given.
 *
 *   npm run bench -- [--checks N] [--scale N] [--duration S] [--connections N] [--trials N]
 *                    [--mass-trials N] [--recovery-checks N] [--window-checks N] [--window-lead S] [--web-cpu N|none]
 *                    [--status-duration S] [--status-repetitions N]
 *                    [--import-checks N] [--import-pings N] [--sustained-seconds S]
 *                    [--phases schedules,throughput,scaleout,lateness,alerts,recovery,drain,scale,window,writes,pages,status-page,import]
 *                    [--reference-url URL [--reference-key KEY] [--reference-server TEXT] [--reference-pid N]]
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { count } from './common.js';
import { localOrigin, type Reference } from './reference.js';

/** The bench's phases, in the order they run. */
export const PHASES = ['schedules', 'throughput', 'scaleout', 'lateness', 'alerts', 'recovery', 'drain', 'scale', 'window', 'writes', 'pages', 'status-page', 'import'] as const;
export type Phase = (typeof PHASES)[number];

/** The options as parsed; durations in seconds. */
export interface BenchOptions {
  checks: number;
  /** Seconds of the writes phase's sustained pinging. */
  sustainedSeconds: number;
  scale: number;
  duration: number;
  connections: number;
  trials: number;
  massTrials: number;
  recoveryChecks: number;
  windowChecks: number;
  windowLead: number;
  phases: Phase[];
  /** The pages phase's measurements to run (pages.ts PAGE_MEASURES), and the requests timed per page. */
  pageMeasures: string[];
  pageRequests: number;
  /** The status-page phase's load in seconds, and its flips timed (status-page.ts). */
  statusDuration: number;
  statusRepetitions: number;
  /** The import phase's dump: checks, and pings per check (import.ts). */
  importChecks: number;
  importPings: number;
  /** The CPU the web processes and the bare server are pinned to; undefined: unpinned. */
  webCpu: number | undefined;
  referenceUrl?: string;
  referenceKey?: string;
  referenceServer: string;
  referencePid?: number;
}

/** The pages phase's measurements, in the order they run (pages.ts). */
export const PAGE_MEASURES = ['list', 'check', 'charts', 'actions', 'docs', 'reports'] as const;

function pageMeasures(value: string): string[] {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PAGE_MEASURES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown page measurement ${unknown.join(', ')} (${PAGE_MEASURES.join(', ')})`);
  return names;
}

function phases(value: string): Phase[] {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PHASES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown phase ${unknown.join(', ')} (phases: ${PHASES.join(', ')})`);
  return names as Phase[];
}

/** The last CPU when `taskset` can pin to it and there are several, else undefined (unpinned). */
function defaultWebCpu(): number | undefined {
  const cpus = availableParallelism();
  return cpus > 1 && spawnSync('taskset', ['--version']).status === 0 ? cpus - 1 : undefined;
}

function webCpu(value: string): number | undefined {
  if (value === 'none') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a CPU number (0, 1, …) or none');
  return n;
}

/**
 * Parses the command line (`process.argv`); commander prints the problem and exits 1 on a bad option.
 *
 * @returns The options, and the reference under the same load when `--reference-url` is given.
 */
export function parseOptions(): { opts: BenchOptions; reference: Reference | undefined } {
  const program = new Command('bench')
    .option('--checks <n>', 'checks in the throughput, lateness, alert and writes phases', count, 1000)
    .option('--sustained-seconds <s>', 'seconds of the writes phase\'s sustained pinging (at least 120)', count, 600)
    .option('--scale <n>', 'active checks in the scale phase', count, 100_000)
    .option('--duration <s>', 'seconds of each ping load', count, 20)
    .option('--connections <n>', 'concurrent connections of each ping load', count, 50)
    .option('--trials <n>', 'single-check trials of lateness and alert latency', count, 10)
    .option('--recovery-checks <n>', 'checks due in the same instant in each fault of the recovery phase', count, 300)
    .option('--mass-trials <n>', 'mass downs (all checks due in the same instant) of the alerts phase, a minute apart', count, 3)
    .option('--window-checks <n>', 'checks down in the one maintenance window of the window phase', count, 10_000)
    .option('--window-lead <s>', 'seconds from their deadline to the window\'s end (time to go down and be held first)', count, 240)
    .option('--page-measures <list>', `the pages phase's measurements (${PAGE_MEASURES.join(',')})`, pageMeasures, [...PAGE_MEASURES])
    .option('--page-requests <n>', 'requests timed per page in the pages phase', count, 50)
    .option('--status-duration <s>', 'seconds of the status-page phase\'s load on a status page', count, 10)
    .option('--status-repetitions <n>', 'flips timed in each of the status-page phase\'s flip measurements', count, 20)
    .option('--import-checks <n>', 'checks in the import phase\'s Healthchecks dump', count, 10_000)
    .option('--import-pings <n>', 'pings per check in the import phase\'s dump', count, 100)
    .option('--phases <list>', `comma-separated phases to run (${PHASES.join(',')})`, phases, [...PHASES])
    .option('--web-cpu <n>', 'CPU the web processes and the bare server are pinned to, or none', webCpu, defaultWebCpu())
    .option('--reference-url <url>', 'a Healthchecks running on 127.0.0.1 to put the same ping load on', localOrigin, process.env.REFERENCE_URL)
    .option('--reference-key <key>', 'a read-write API key of its project', process.env.REFERENCE_API_KEY)
    .option('--reference-server <text>', 'how it is served, for its row', process.env.REFERENCE_SERVER ?? 'server not given')
    .option('--reference-pid <n>', 'its server\'s master process, for CPU time per request', count, process.env.REFERENCE_PID ? Number(process.env.REFERENCE_PID) : undefined);
  program.parse();
  const opts = program.opts<BenchOptions>();
  // Commander stores '' where a parser returns undefined (`--web-cpu none`): unpinned, not `taskset -c ''`.
  if ((opts.webCpu as unknown) === '') opts.webCpu = undefined;
  if (opts.referenceUrl !== undefined && opts.referenceKey === undefined) program.error('--reference-url needs --reference-key (or REFERENCE_API_KEY)');
  const reference = opts.referenceUrl === undefined || opts.referenceKey === undefined
    ? undefined : { origin: opts.referenceUrl, apiKey: opts.referenceKey, pid: opts.referencePid };
  return { opts, reference };
}
