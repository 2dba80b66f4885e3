/**
 * Starting the service's own processes (web, worker) as children for the
 * bench, exactly as the Procfile runs them, and reading their CPU time and memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, stopChild } from '../local-services.js';

/** Linux's clock ticks per second (USER_HZ), the unit of CPU times in /proc. */
const CLOCK_TICKS_PER_S = 100;
/** How long a stopping child may finish its work before it is killed, milliseconds. */
const STOP_GRACE_MS = 10_000;

/** A started child and how to stop it. */
export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A server process of the bench and where it answers. */
export interface Served {
  child: Child;
  origin: string;
}

/**
 * Runs `node <args>` with `env` added to the current environment; its stdout is dropped, its stderr shown.
 *
 * @param args - A compiled entry point, e.g. `dist/server/main.js`, or node's own arguments (`-e <code>`).
 * @param cpu - Pins the process to this CPU (`taskset -c`); undefined runs it unpinned.
 */
export function startNode(args: string | string[], env: Record<string, string>, cpu?: number): Child {
  const argv = [process.execPath, ...(typeof args === 'string' ? [args] : args)];
  const command = cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { process: child, stop: () => stopChild(child, STOP_GRACE_MS) };
}

/** A started child whose output the bench reads (to know when it is ready). */
export interface WatchedChild extends Child {
  /** Its stdout and stderr, interleaved: the last 64 KB. */
  output(): string;
}

/** Output kept per watched child, characters. */
const OUTPUT_KEPT = 65_536;

/**
 * {@link startNode} with the child's stdout and stderr kept (the last 64 KB), unpinned.
 *
 * @param args - A compiled entry point, e.g. `dist/workers/main.js`.
 */
export function startWatched(args: string, env: Record<string, string>): WatchedChild {
  const child = spawn(process.execPath, [args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { process: child, stop: () => stopChild(child, STOP_GRACE_MS), output: () => output };
}

/**
 * Waits until a watched child has printed `text` (a log message, e.g. `workers started`).
 *
 * @param timeoutMs - Give up after this many milliseconds.
 * @throws Error with the child's last output when it exits first or does not print it in time.
 */
export async function waitForOutput(child: WatchedChild, text: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!child.output().includes(text)) {
    if (child.process.exitCode !== null || child.process.signalCode !== null || Date.now() > until) {
      throw new Error(`no "${text}" from ${String(child.process.spawnargs.at(-1))} (exit ${child.process.exitCode ?? child.process.signalCode}); its output:\n${child.output().slice(-2000)}`);
    }
    await sleep(100);
  }
}

/**
 * A web process (`dist/server/main.js`) on a free port, `PORT` and `BASE_URL` set to it, with `env` added.
 *
 * @param cpu - Pins it to this CPU; undefined runs it unpinned.
 * @returns It and its origin, once its status answers.
 * @throws Error when it does not answer within 60 s (it is stopped first).
 */
export async function startWeb(env: Record<string, string>, cpu?: number): Promise<Served> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = startNode('dist/server/main.js', { ...env, PORT: String(port), BASE_URL: origin }, cpu);
  await waitForHttp(`${origin}/api/v3/status/`, 60_000).catch(async (err: unknown) => {
    await child.stop();
    throw err;
  });
  return { child, origin };
}

/**
 * A worker process (`dist/workers/main.js`) with `env` added, its output kept.
 *
 * @returns It, once it says it has started.
 * @throws Error when it does not say so within 120 s (it is stopped first).
 */
export async function startWorker(env: Record<string, string>): Promise<WatchedChild> {
  const worker = startWatched('dist/workers/main.js', env);
  await waitForOutput(worker, 'workers started', 120_000).catch(async (err: unknown) => {
    await worker.stop();
    throw err;
  });
  return worker;
}

/**
 * CPU time (user + system) process `pid` has used so far, in milliseconds, read
 * from /proc: a figure of its own, whatever else runs on the machine.
 *
 * @returns undefined where /proc cannot tell (not Linux, or the process has exited).
 */
export function cpuMsOfPid(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name: state is field 3, utime 14, stime 15 (man 5 proc).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** A thread's time so far on a CPU and waiting in a run queue for one (runnable, not running), milliseconds. */
export interface SchedTimes {
  onCpuMs: number;
  waitMs: number;
}

/**
 * {@link SchedTimes} of process `pid`'s main thread, read from /proc (`task/<pid>/schedstat`, nanoseconds): how long it waited for a CPU
 * tells a busy machine from a slow process.
 *
 * @returns undefined where /proc cannot tell (not Linux, no schedstats, or the process has exited).
 */
export function schedOfPid(pid: number | undefined): SchedTimes | undefined {
  try {
    const [onCpuNs, waitNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(onCpuNs) && Number.isFinite(waitNs) ? { onCpuMs: onCpuNs / 1e6, waitMs: waitNs / 1e6 } : undefined;
  } catch {
    return undefined;
  }
}

/** {@link cpuMsOfPid} of a child, milliseconds. */
export function cpuMsOf(child: Child): number | undefined {
  return cpuMsOfPid(child.process.pid);
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
