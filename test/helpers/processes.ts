/**
 * Running the compiled entry points (dist/…/main.js) as child processes, the
 * way the Procfile does, against the run's MongoDB and Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { testContext } from './hooks.js';
import { waitFor } from './poll.js';

/** A started child process and everything it printed so far. */
export interface Child {
  process: ChildProcess;
  /** stdout and stderr, interleaved. */
  output(): string;
  /**
   * Sends `signal` and waits for the exit.
   *
   * @returns The exit code (null when killed by a signal).
   * @throws Error when it does not exit within `timeoutMs` (it is then killed).
   */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

/** Children still running, killed by {@link killChildren}. */
const running = new Set<ChildProcess>();

/**
 * Starts `node <script>` from the dist/ tree.
 *
 * @param script - Path relative to dist/, e.g. `workers/main.js`.
 * @param env - Added to the test environment; MONGODB_URI and REDIS_URL default to the run's. A variable set to
 *   `undefined` is left out (spawn skips it), e.g. `NODE_ENV` for a run as a user starts it.
 */
export function startNode(script: string, env: NodeJS.ProcessEnv = {}): Child {
  const { services } = testContext();
  const path = fileURLToPath(new URL(`../../${script}`, import.meta.url));
  const child = spawn(process.execPath, [path], {
    env: { ...process.env, LOG_LEVEL: 'info', MONGODB_URI: services.mongoUri, REDIS_URL: services.redisUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: child,
    output: () => output,
    stop: async (signal = 'SIGTERM', timeoutMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const [code, killedBy] = (await exited) as [number | null, NodeJS.Signals | null];
      clearTimeout(timer);
      if (killedBy === 'SIGKILL') throw new Error(`${script} did not exit within ${timeoutMs} ms of ${signal}`);
      return code;
    },
  };
}

/**
 * Waits until the child has printed `text`.
 *
 * @throws Error with the child's output when it exits first or the wait times out.
 */
export async function waitForOutput(child: Child, text: string, timeoutMs = 10_000): Promise<void> {
  try {
    await waitFor(`"${text}"`, async () => {
      if (child.process.exitCode !== null) throw new Error(`exited with ${child.process.exitCode}`);
      return child.output().includes(text);
    }, timeoutMs);
  } catch (err) {
    throw new Error(`${String(err)}; output:\n${child.output()}`, { cause: err });
  }
}

/** Kills children a failed test left running (root afterEach). */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}
