/**
 * Starting the service's own processes (web, worker) as children for the
 * bench, exactly as the Procfile runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Linux's clock ticks per second (USER_HZ), the unit of CPU times in /proc. */
const CLOCK_TICKS_PER_S = 100;

/** A started child and how to stop it. */
export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs `node <args>` with `env` added to the current environment.
 *
 * @param args - A compiled entry point, e.g. `dist/server/main.js`, or node's own arguments (`-e <code>`).
 * @param cpu - Pins the process to this CPU (`taskset -c`); undefined runs it unpinned.
 */
export function startNode(args: string | string[], env: Record<string, string>, cpu?: number): Child {
  const argv = [process.execPath, ...(typeof args === 'string' ? [args] : args)];
  const command = cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
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
 * CPU time (user + system) a child has used so far, in milliseconds, read
 * from /proc: a figure of its own, whatever else runs on the machine.
 *
 * @returns undefined where /proc cannot tell (not Linux, or the child has exited).
 */
export function cpuMsOf(child: Child): number | undefined {
  try {
    // Fields after the command name: state is field 3, utime 14, stime 15 (man 5 proc).
    const fields = readFileSync(`/proc/${child.process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * A child's peak resident memory so far (VmHWM in /proc), in megabytes.
 *
 * @returns undefined where /proc cannot tell (not Linux, or the child has exited).
 */
export function peakRssMbOf(child: Child): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.process.pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
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
