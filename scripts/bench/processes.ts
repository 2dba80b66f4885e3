/**
 * Starting the service's own processes (web, worker) as children for the
 * bench, exactly as the Procfile runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** A started child and how to stop it. */
export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs `node <script>` with `env` added to the current environment.
 *
 * @param script - Path of a compiled entry point, e.g. `dist/server/main.js`.
 */
export function startNode(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Waits until `url` answers 200.
 *
 * @param timeoutMs - Give up after this many milliseconds.
 * @throws Error when it does not answer in time.
 */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
