/**
 * Waiting for the workers: polls a condition instead of sleeping a guessed
 * time (the test's mocha timeout bounds the wait).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Poll interval, milliseconds. */
const POLL_MS = 25;

/**
 * Resolves with the first truthy value `probe` returns.
 *
 * @param probe - Checked every 25 ms.
 */
export async function until<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await sleep(POLL_MS);
  }
}
