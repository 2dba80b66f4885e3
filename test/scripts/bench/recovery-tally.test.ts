import { expect } from 'chai';
import { FAULTS, tally, type Arrival } from '../../../scripts/bench/recovery.js';

/** The recovery phase's counting (scripts/bench/recovery.ts): delays from the first arrival per check, repeats by Idempotency-Key. */
describe('bench recovery: tally of the received down alerts', () => {
  const at = new Date('2026-11-26T06:00:00.000Z');
  const arrival = (uuid: string, key: string, afterMs: number): Arrival => ({ uuid, key, atMs: at.getTime() + afterMs });

  it('counts each check once, its delay from its first alert, and repeats apart by whether they kept the key', () => {
    const result = tally([
      arrival('a', 'key-a', 1_200), arrival('b', 'key-b', 900), arrival('a', 'key-a', 6_000), arrival('c', 'key-c', 3_000), arrival('c', 'other', 4_000),
    ], at, FAULTS[0], 4);
    expect(result).to.deep.equal({
      fault: FAULTS[0], checks: 4, alerted: 3, repeats: 2, repeatsSameKey: 1, delays: { count: 3, p50: 1_200, p95: 3_000, p99: 3_000, max: 3_000 },
    });
  });

  it('leaves the delays out when no alert arrived', () => {
    expect(tally([], at, FAULTS[2], 300)).to.deep.equal({ fault: FAULTS[2], checks: 300, alerted: 0, repeats: 0, repeatsSameKey: 0, delays: undefined });
  });
});
