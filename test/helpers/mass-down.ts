/**
 * A mass down for fault tests: many checks with a webhook channel, due at one moment, and the count assertions every fault must keep (0 lost, 0
 * duplicate flips, every alert present, a repeat only under its alert's Idempotency-Key).
 */
import { expect } from 'chai';
import { Check } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Notification } from '../../shared/models/notification.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import { buildChannel, buildCheck, buildProject } from './factories.js';
import { testContext } from './hooks.js';
import { jsonBody, type Receiver } from './receiver.js';
import { waitFor } from './poll.js';

/** `count` checks up, alerting `receiver`, whose deadline is `at`, with their deadline jobs in Redis; returns their UUIDs. */
export async function checksDueAt(receiver: Receiver, count: number, at: Date): Promise<string[]> {
  const project = await buildProject();
  const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
  const fields = { status: 'up' as const, lastPing: new Date(at.getTime() - 2_000), timeout: 1, grace: 1, deadline: at, channels: [channel._id] };
  const checks = await Promise.all(Array.from({ length: count }, () => buildCheck(project, fields)));
  await scheduleDeadlines(testContext().queues.deadlines, checks.map((c) => ({ checkId: c._id, at })), new Date());
  return checks.map((c) => c._id);
}

/** Waits until every check's alert is delivered and no flip is owed. */
export async function allAlerted(checkIds: readonly string[], timeoutMs: number): Promise<void> {
  await waitFor('every alert delivered and no flip owed', async () =>
    (await Notification.countDocuments({ checkId: { $in: checkIds }, state: 'delivered' })) === checkIds.length &&
    (await Check.countDocuments({ _id: { $in: checkIds }, 'outbox.0': { $exists: true } })) === 0, timeoutMs);
}

/**
 * Asserts: every check down with exactly one down flip; every check's alert received; every received alert's Idempotency-Key belongs to one check
 * (a repeat carries the same key). With `exactlyOnce`, no alert was received twice.
 */
export async function expectOnceEach(receiver: Receiver, checkIds: readonly string[], exactlyOnce: boolean): Promise<void> {
  const sorted = [...checkIds].sort();
  expect(await Check.countDocuments({ _id: { $in: checkIds }, status: 'down' })).to.equal(checkIds.length);
  const flips = await Flip.find({ checkId: { $in: checkIds }, newStatus: 'down' }).lean();
  expect(flips.map((f) => f.checkId).sort()).to.deep.equal(sorted);
  const keyOf = new Map<string, string>();
  for (const request of receiver.requests) {
    const uuid = jsonBody(request).uuid as string;
    const key = String(request.headers['idempotency-key']);
    expect(keyOf.get(uuid) ?? key, `the Idempotency-Key of check ${uuid}'s repeated alert`).to.equal(key);
    keyOf.set(uuid, key);
  }
  expect([...keyOf.keys()].sort()).to.deep.equal(sorted);
  expect(new Set(keyOf.values()).size).to.equal(checkIds.length);
  if (exactlyOnce) expect(receiver.requests.length).to.equal(checkIds.length);
}

/**
 * With FAULT_FIGURES=1, prints how late the checks' alerts were delivered after their deadline, or after `since` (the fault) when later (p50, p99,
 * max, in seconds): docs/benchmarks.md's figures. Prints nothing otherwise; asserts nothing (timings are not test outcomes).
 */
export async function printAlertDelays(label: string, checkIds: readonly string[], since = new Date(0)): Promise<void> {
  if (process.env.FAULT_FIGURES !== '1') return;
  const delivered = await Notification.find({ checkId: { $in: checkIds }, state: 'delivered' }, { delivered: 1, flipCreated: 1 }).lean();
  const delays = delivered.map((n) => (n.delivered!.getTime() - Math.max(n.flipCreated.getTime(), since.getTime())) / 1000).sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))].toFixed(1);
  process.stdout.write(`      ${label}: alert delay after the deadline (or the fault) p50 ${at(0.5)} s, p99 ${at(0.99)} s, max ${at(1)} s (${delays.length} alerts)\n`);
}
