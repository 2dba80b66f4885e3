/**
 * Test-only crash points. The fault tests start a real process with
 * `NODE_ENV=test TEST_CRASH_AT=<name>`; when execution reaches the crash
 * point of that name the process kills itself with SIGKILL, exactly as a
 * `kill -9` at that instant would, and the test then checks that a restarted
 * process (or the sweep) completes the work exactly once. Without
 * TEST_CRASH_AT (always, outside tests) a crash point does nothing.
 */
import { config } from './config.js';

/** The crash points of the event path, in the order a down transition passes them. */
export type CrashPoint =
  /** The deadline worker stored `down` and the owed flip in the check's outbox; nothing else is written. */
  | 'deadline-stored'
  /** The outbox completion inserted the notifications; the flip, the notify jobs and the outbox pull are not done. */
  | 'notifications-inserted'
  /** The flip and notify jobs exist; the outbox entry is still on the check. */
  | 'flip-inserted'
  /** A notify attempt claimed its notification and is about to send it. */
  | 'notify-claimed';

/**
 * Kills this process with SIGKILL when `TEST_CRASH_AT` names `point`.
 *
 * @param point - Where execution is.
 */
export function crashPoint(point: CrashPoint): void {
  if (config.crashAt === point) process.kill(process.pid, 'SIGKILL');
}
