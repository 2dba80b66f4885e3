/**
 * Waiting for something asynchronous (a worker, a child process) without
 * fixed sleeps: poll until a condition holds, fail after a bounded time.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How often {@link waitFor} polls, in milliseconds. */
const POLL_EVERY_MS = 25;

/**
 * Polls `probe` until it returns something other than `undefined`/`false`/`null`.
 *
 * @param what - Said in the error, e.g. `'the flip'`.
 * @param timeoutMs - Give up after this many milliseconds.
 * @returns The first truthy-enough value.
 * @throws Error naming `what` on timeout.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 5_000,
): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > giveUpAt) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(POLL_EVERY_MS);
  }
}
