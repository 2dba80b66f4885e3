/**
 * The set-up the worker-kill fault tests share (test/faults/down-crash, rules-crash, release-crash): a webhook receiver per test, real worker
 * processes (dist/workers/main.js) of which every one left is killed with SIGKILL after the test, a worker that kills itself at a crash point
 * (`TEST_CRASH_AT`, shared/crash.ts), and a restarted one waited on until the work is done.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CrashPoint } from '../../shared/crash.js';
import type { ChannelDoc } from '../../shared/models/channel.js';
import { buildChannel, buildProject, type TestProject } from './factories.js';
import { startNode, type Child } from './processes.js';
import { startReceiver, type Receiver } from './receiver.js';
import { waitFor } from './poll.js';

/** Worker settings of the rule fault tests: sweep every second, job locks of 2 s, short alert timeouts and backoff (milliseconds). */
export const FAST_WORKER_ENV = { SWEEP_INTERVAL_MS: '1000', JOB_LOCK_MS: '2000', NOTIFY_TIMEOUT_MS: '1000', NOTIFY_BACKOFF_MS: '50', LOG_LEVEL: 'warn' };

/** How long a restarted worker is watched after the work is done, for an alert sent twice (milliseconds). */
const REPEAT_WATCH_MS = 1500;

/** What a worker-kill test uses; the receiver is the current test's. */
export interface WorkerCrashRig {
  readonly receiver: Receiver;
  /** A new project with one webhook channel to the receiver (`<receiver>/hook`). */
  hookedProject(): Promise<{ project: TestProject; channel: ChannelDoc }>;
  /** Runs a worker that kills itself at `point`, and waits until it died of SIGKILL (its output in the assertion's message). */
  crashAt(point: CrashPoint): Promise<void>;
  /**
   * Starts a worker and waits until `done` holds, then {@link REPEAT_WATCH_MS} more.
   * @param what - Said in the timeout error, with the worker's output.
   * @param timeoutMs - Longest wait for `done`, milliseconds.
   * @returns When the worker was started.
   */
  recover(what: string, done: () => Promise<boolean>, timeoutMs: number): Promise<Date>;
}

/**
 * Registers the rig's hooks in the calling `describe`: a receiver started before each test, and after it every worker killed and the receiver
 * closed.
 * @param env - The workers' environment (added to the test's; {@link FAST_WORKER_ENV} or the shipped settings).
 */
export function workerCrashRig(env: Record<string, string>): WorkerCrashRig {
  let receiver: Receiver | undefined;
  let workers: Child[] = [];
  const start = (extra: Record<string, string> = {}): Child => {
    const worker = startNode('workers/main.js', { ...env, ...extra });
    workers.push(worker);
    return worker;
  };
  const current = (): Receiver => {
    if (!receiver) throw new Error('the receiver starts before each test');
    return receiver;
  };
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL').catch(() => undefined)));
    workers = [];
    await receiver?.close();
  });
  return {
    get receiver(): Receiver {
      return current();
    },
    async hookedProject() {
      const project = await buildProject();
      const channel = await buildChannel(project, { kind: 'webhook', value: `${current().url}/hook` });
      return { project, channel };
    },
    async crashAt(point) {
      const crashing = start({ TEST_CRASH_AT: point });
      const [, signal] = (await once(crashing.process, 'exit')) as [number | null, string | null];
      expect(signal, crashing.output()).to.equal('SIGKILL');
    },
    async recover(what, done, timeoutMs) {
      const restarted = new Date();
      const worker = start();
      await waitFor(what, done, timeoutMs).catch((err: unknown) => {
        throw new Error(`${String(err)}; worker output:\n${worker.output()}`);
      });
      await sleep(REPEAT_WATCH_MS);
      return restarted;
    },
  };
}
