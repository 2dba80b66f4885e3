/**
 * Test-only crash points: under `NODE_ENV=test TEST_CRASH_AT=<name>` the process SIGKILLs itself there, as `kill -9`
 * would, and fault tests check that a restart (or the sweep) completes the work once. Otherwise a no-op.
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

/** Kills this process with SIGKILL when `TEST_CRASH_AT` names `point`. */
export function crashPoint(point: CrashPoint): void {
  if (config.crashAt === point) process.kill(process.pid, 'SIGKILL');
}
