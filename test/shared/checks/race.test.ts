/**
 * The event path's concurrency requirement: many pings, a deadline, an API
 * update and a pause racing on one check give every transition and every
 * alert exactly once.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import { systemClock } from '../../../shared/clock.js';
import type { StoredStatus } from '../../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../../shared/models/flip.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import { notifiesOn } from '../../../shared/domain/status.js';
import { recordPings, type PingItem } from '../../../shared/pings/record.js';
import { applyDeadlines } from '../../../shared/deadlines/process.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { waitFor } from '../../helpers/poll.js';
import { jsonBody, startReceiver } from '../../helpers/receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';
import { notifyWorker } from '../../../shared/alerts/notify.js';
import { createRedis } from '../../../shared/queues/connections.js';
import { queueIdle, stored } from '../../workers/support.js';
import { api } from '../../server/routes/support.js';

type RacedSignal = 'success' | 'fail';
type StoredFlip = FlipDoc & { _id: Types.ObjectId };

/** Pings sent one per batch, and batches of several, per round. */
const SINGLE_PINGS = 50;
const BATCHES = 5;
const BATCH_SIZE = 4;
const ROUNDS = 5;

/** A small deterministic generator, so a failing round can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const statusOf = (signal: RacedSignal): StoredStatus => (signal === 'success' ? 'up' : 'down');

/**
 * Whether the flips, in the order they were written, are exactly the status
 * changes of the pings taken in their order (n), with the pause and the
 * missed deadline each placed somewhere among them: every ping whose
 * status differs from the current one flips (reason `fail` for a fail), a
 * ping agreeing with it does not, and nothing else flips.
 */
function impliedBySequence(initial: StoredStatus, pings: readonly RacedSignal[], flips: readonly StoredFlip[]): boolean {
  const seen = new Set<string>();
  const reach = (i: number, j: number): boolean => {
    if (i === pings.length && j === flips.length) return true;
    const key = `${i}:${j}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const current = j === 0 ? initial : flips[j - 1].newStatus;
    const next = flips[j];
    if (i < pings.length) {
      const target = statusOf(pings[i]);
      if (target === current && reach(i + 1, j)) return true;
      const reason = pings[i] === 'fail' ? 'fail' : '';
      if (target !== current && next && next.oldStatus === current && next.newStatus === target && next.reason === reason && reach(i + 1, j + 1)) return true;
    }
    const pause = next?.newStatus === 'paused' && next.reason === '';
    const timeout = next?.newStatus === 'down' && next.reason === 'timeout';
    return !!next && next.oldStatus === current && (pause || timeout) && reach(i, j + 1);
  };
  return reach(0, 0);
}

describe('one check raced by pings, a deadline, an API update and a pause', () => {
  it('records every ping, transition and alert exactly once', async function () {
    this.timeout(300_000);
    const receiver = await startReceiver();
    // The race saturates this process and the database for seconds: with the short locks and
    // leases of the other alert tests (1 s job locks, 2 s claims), an attempt slowed down by it
    // is taken over by a second one (at-least-once delivery, shared/alerts/notifications.ts),
    // which is not what this test is about. So the notify worker runs with the default job lock
    // (JOB_LOCK_MS) and a 10 s attempt timeout (claims of 20 s).
    const notify = testNotifyConfig(receiver.url, { attemptTimeoutMs: 10_000 });
    const connection = createRedis(testContext().services.redisUrl, 'worker');
    const worker = notifyWorker({ connection, queues: testContext().queues, clock: systemClock, settings: { deadlineConcurrency: 10, sweepIntervalMs: 60_000 }, notify });
    try {
      const project = await buildProject();
      const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
      const { queues } = testContext();
      const pingDeps = { clock: systemClock, queues };
      const client = api(project.apiKey);

      for (let round = 0; round < ROUNDS; round++) {
        const next = random(round + 1);
        const signal = (): RacedSignal => (next() < 0.5 ? 'fail' : 'success');
        // Up, and past its deadline: the deadline flips it down unless a ping (or the update) comes first.
        const lastPing = new Date(Date.now() - 600_000);
        const check = await buildCheck(project, { status: 'up', timeout: 60, grace: 60, lastPing, deadline: new Date(lastPing.getTime() + 120_000), channels: [channel._id] });
        const item = (s: RacedSignal): PingItem => ({
          checkId: check._id,
          resolve: () => s,
          meta: { _id: new Types.ObjectId(), scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: `round ${round}`, body: null, exitStatus: null, rid: null },
        });
        const batches: PingItem[][] = [
          ...Array.from({ length: SINGLE_PINGS }, () => [item(signal())]),
          ...Array.from({ length: BATCHES }, () => Array.from({ length: BATCH_SIZE }, () => item(signal()))),
        ];
        const pingCount = batches.flat().length;
        // The first rounds start everything at once; the later ones spread the pings' start over
        // 50, 100 and 200 ms (still overlapping), so the deadline, the update and the pause also
        // get to write first (with everything at once, the pings nearly always take the first rev).
        const spread = round < 2 ? 0 : 50 * 2 ** (round - 2);
        const ops: (() => Promise<unknown>)[] = [
          ...batches.map((batch) => {
            const wait = Math.floor(next() * spread);
            return async () => {
              if (wait > 0) await sleep(wait);
              return recordPings(pingDeps, batch);
            };
          }),
          () => applyDeadlines({ queues, clock: systemClock, notify }, [check._id]),
          async () => expect((await client.post(`/checks/${check._id}`, { timeout: 60 + round, grace: 60 })).status).to.equal(200),
          async () => expect((await client.post(`/checks/${check._id}/pause`)).status).to.equal(200),
        ];
        const results = await Promise.all(shuffle(ops, next).map((op) => op()));

        // Every ping counted once, numbered 1..n without gap or repeat.
        const ns = results.filter((r): r is (number | null)[] => Array.isArray(r)).flat();
        expect(ns, `round ${round}: numbers returned`).to.have.length(pingCount);
        const repeated = 'a number given twice means two writes guarded by the same rev both matched';
        expect([...ns].sort((a, b) => a! - b!), `round ${round}: numbers returned (${repeated})`).to.deep.equal(Array.from({ length: pingCount }, (_, i) => i + 1));
        const after = await stored(check._id);
        expect(after.nPings, `round ${round}: n_pings`).to.equal(pingCount);
        const pings = await Ping.find({ checkId: check._id }).sort({ n: 1 }).lean<PingDoc[]>();
        expect(pings.map((p) => p.n), `round ${round}: ping documents`).to.deep.equal(Array.from({ length: pingCount }, (_, i) => i + 1));
        expect(new Set(pings.map((p) => String(p._id))), `round ${round}: ping ids`).to.deep.equal(new Set(batches.flat().map((p) => String(p.meta._id))));
        // Each batch's pings numbered in their order.
        const nOf = new Map(pings.map((p) => [String(p._id), p.n]));
        for (const batch of batches) {
          const batchNs = batch.map((p) => nOf.get(String(p.meta._id))!);
          expect(batchNs, `round ${round}: a batch's numbers`).to.deep.equal(batchNs.map((_, i) => batchNs[0] + i));
        }

        // The flips, in the order written, chain from the first status to the stored one
        // and are exactly the changes the pings (in n order), the pause and the deadline imply.
        const flips = await Flip.find({ checkId: check._id }).sort({ _id: 1 }).lean<StoredFlip[]>();
        const chain = flips.map((f) => `${f.oldStatus}→${f.newStatus}${f.reason ? ` (${f.reason})` : ''}`).join(', ');
        flips.forEach((flip, i) => {
          expect(flip.oldStatus, `round ${round}: flip ${i} of ${chain}`).to.equal(i === 0 ? 'up' : flips[i - 1].newStatus);
          expect(flip.newStatus, `round ${round}: flip ${i} of ${chain}`).to.not.equal(flip.oldStatus);
        });
        expect(flips.at(-1)?.newStatus ?? 'up', `round ${round}: last flip of ${chain}`).to.equal(after.status);
        expect(flips.filter((f) => f.newStatus === 'paused'), `round ${round}: pause flips in ${chain}`).to.have.length(1);
        expect(flips.filter((f) => f.reason === 'timeout').length, `round ${round}: timeout flips in ${chain}`).to.be.at.most(1);
        const kinds = pings.map((p) => p.kind as RacedSignal);
        expect(impliedBySequence('up', kinds, flips), `round ${round}: ${chain} from pings ${kinds.map((k) => k[0]).join('')}`).to.equal(true);
        expect(after.outbox, `round ${round}: outbox`).to.deep.equal([]);

        // One notification per alerting flip and channel, none for the others.
        const alerting = flips.filter((f) => notifiesOn(f));
        const notifications = await Notification.find({ checkId: check._id }).lean<NotificationDoc[]>();
        expect(notifications.map((n) => n.flipId).sort(), `round ${round}: notifications of ${chain}`).to.deep.equal(alerting.map((f) => String(f._id)).sort());
        expect(notifications.every((n) => n.channelId === channel._id), `round ${round}: channels`).to.equal(true);

        // Each delivered once: one POST per delivered notification. A notification is only
        // left unsent when the check was paused when its turn came (docs/alerts.md, "Who gets alerted").
        const settled = await waitFor(`round ${round}: every notification settled`, async () => {
          const all = await Notification.find({ checkId: check._id }).lean<NotificationDoc[]>();
          return all.every((n) => n.state === 'delivered' || n.state === 'failed') && all;
        }, 30_000);
        await waitFor('the notify queue to be idle', () => queueIdle(queues.notify), 30_000);
        const delivered = settled.filter((n) => n.state === 'delivered');
        const unsent = settled.filter((n) => n.state === 'failed');
        expect(unsent.map((n) => n.error), `round ${round}: unsent notifications`).to.deep.equal(unsent.map(() => 'check is paused'));
        const attempts = settled.map((n) => `${n.status}:${n.state}:${n.attempts}[${n.attemptLog.map((a) => a.error).join('|')}]`);
        expect(settled.every((n) => n.state === 'delivered' ? n.attempts === 1 : n.attempts === 0), `round ${round}: one attempt each: ${attempts.join(' ')}`).to.equal(true);
        const posts = receiver.requests.filter((r) => jsonBody(r).uuid === check._id);
        expect(posts.every((r) => r.method === 'POST' && r.url === '/hook'), `round ${round}: requests`).to.equal(true);
        expect(posts.map((r) => jsonBody(r).status).sort(), `round ${round}: webhook POSTs`).to.deep.equal(delivered.map((n) => n.status).sort());
      }
    } finally {
      await worker.close();
      connection.disconnect();
      await receiver.close();
    }
  });
});
