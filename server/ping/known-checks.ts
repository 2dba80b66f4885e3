/**
 * Which check UUIDs exist, remembered by the web process for a minute so that a journaled ping (shared/pings/journal.ts) is answered without a
 * MongoDB round trip: under a burst, or while MongoDB does not answer, a ping to a known check is acknowledged from Redis. A check deleted within
 * that minute is still "known": its ping is answered 404 when MongoDB answers within PING_ACK_MS (the batch finds no check), else 200, and then not
 * recorded (its check is gone).
 */
import { Check } from '../../shared/models/check.js';

/** How long a check found in MongoDB is remembered, milliseconds. */
const REMEMBER_MS = 60_000;
/** Most UUIDs remembered; the oldest are forgotten first. */
const MAX_REMEMBERED = 200_000;

/** A process-wide memory of existing check UUIDs. */
export class KnownChecks {
  /** UUID → until when it is trusted, milliseconds since the epoch (insertion order = age). */
  private readonly until = new Map<string, number>();

  /** Whether a check with this UUID exists: from memory, else one MongoDB read by `_id` (whose error it throws). */
  async exists(uuid: string): Promise<boolean> {
    const now = Date.now();
    const until = this.until.get(uuid);
    if (until !== undefined && until > now) return true;
    const found = await Check.exists({ _id: uuid });
    this.until.delete(uuid);
    if (!found) return false;
    this.until.set(uuid, now + REMEMBER_MS);
    if (this.until.size > MAX_REMEMBERED) this.until.delete(this.until.keys().next().value!);
    return true;
  }

  /** Forgets a UUID (its check was deleted by this process, or a ping found it gone). */
  forget(uuid: string): void {
    this.until.delete(uuid);
  }
}
