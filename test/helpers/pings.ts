/**
 * Helpers shared by the Pinging API tests: a clock tests can move, and reads
 * of what a ping left in MongoDB.
 */
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Ping, type PingDoc } from '../../shared/models/ping.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import type { Clock } from '../../shared/clock.js';

/** The moment tests start at. */
export const T0 = new Date('2024-05-01T12:00:00.000Z');

/** A clock standing at `now` until moved. */
export interface TestClock {
  now: Date;
  clock: Clock;
  /** Moves the clock forward by `seconds`. */
  advance(seconds: number): void;
}

/** A clock starting at {@link T0} (or `start`). */
export function testClock(start: Date = T0): TestClock {
  const tc: TestClock = {
    now: start,
    clock: () => tc.now,
    advance: (seconds) => {
      tc.now = new Date(tc.now.getTime() + seconds * 1000);
    },
  };
  return tc;
}

/** The check as stored now. */
export async function storedCheck(id: string): Promise<CheckDoc> {
  const check = await Check.findById(id).lean<CheckDoc>();
  if (!check) throw new Error(`check ${id} is gone`);
  return check;
}

/** The check's pings, oldest first. */
export async function storedPings(checkId: string): Promise<PingDoc[]> {
  return Ping.find({ checkId }).sort({ n: 1 }).lean<PingDoc[]>();
}

/** The check's only ping. */
export async function onlyPing(checkId: string): Promise<PingDoc> {
  const pings = await storedPings(checkId);
  if (pings.length !== 1) throw new Error(`expected one ping, found ${pings.length}`);
  return pings[0];
}

/** A stored body as a Buffer (lean reads give a BSON Binary), or null. */
export function bodyBytes(ping: PingDoc): Buffer | null {
  const body = ping.body as unknown as { buffer: Uint8Array } | Buffer | null;
  if (body === null || body === undefined) return null;
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer);
}

/** A stored flip with its id. */
export type StoredFlip = FlipDoc & { _id: unknown };

/** The check's flips, oldest first. */
export async function storedFlips(checkId: string): Promise<StoredFlip[]> {
  return Flip.find({ checkId }).sort({ created: 1 }).lean<StoredFlip[]>();
}
