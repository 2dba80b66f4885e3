/**
 * Clean-up for tests of npm start's private PostgreSQL cluster
 * (scripts/local-postgres.ts): what a failed test may leave behind.
 */
import { existsSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether process `pid` is alive and a PostgreSQL server (not another process that reused its pid). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

/**
 * Stops the cluster in `dir` if it still runs (fast shutdown, then SIGKILL
 * after 10 s); when `dir` is a symlink into the postgres user's home (see
 * startPostgresCluster), removes that cluster too.
 */
export async function stopLeftCluster(dir: string): Promise<void> {
  let target = dir;
  try {
    target = resolve(dirname(dir), readlinkSync(dir));
  } catch {
    // Not a symlink (or not there).
  }
  const pidFile = join(target, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (pid > 0 && alive(pid)) {
      process.kill(pid, 'SIGINT');
      for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
  if (target !== dir && /\/hc-monitor-[^/]+\/pg$/.test(target)) rmSync(dirname(target), { recursive: true, force: true });
}
