import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { Ping } from '../../../../shared/models/ping.js';
import { Flip } from '../../../../shared/models/flip.js';
import { Notification, type NotificationState } from '../../../../shared/models/notification.js';
import { randomUUID } from 'node:crypto';
import type { CheckDoc } from '../../../../shared/models/check.js';
import { storedFlips, storedPings, testClock, T0 } from '../../../helpers/pings.js';

const DAY_MS = 86400_000;
const daysAgo = (days: number): Date => new Date(T0.getTime() - days * DAY_MS);

/** Gives the check pings 1..count, ping n created at `createdOf(n)`. */
async function seedPings(check: CheckDoc, count: number, createdOf: (n: number) => Date): Promise<void> {
  const docs = Array.from({ length: count }, (_, i) => ({ checkId: check._id, n: i + 1, created: createdOf(i + 1), kind: 'success' }));
  await Ping.insertMany(docs);
}

async function seedFlip(check: CheckDoc, created: Date): Promise<void> {
  await Flip.create({ checkId: check._id, created, recorded: created, processed: created, oldStatus: 'up', newStatus: 'down' });
}

async function seedNotification(check: CheckDoc, created: Date, state: NotificationState = 'delivered'): Promise<void> {
  const ids = { _id: randomUUID(), flipId: randomUUID(), channelId: randomUUID() };
  await Notification.create({ ...ids, checkId: check._id, status: 'down', flipCreated: created, state, created, updated: created });
}

async function notificationDates(check: CheckDoc): Promise<Date[]> {
  return (await Notification.find({ checkId: check._id }).lean()).map((n) => n.created);
}

/** Pruning on every 100th ping (docs/pinging.md, "Pruning"). */
describe('ANY /ping/<uuid>: pruning', () => {
  let project: TestProject;
  const ping = (check: CheckDoc) => http(testClock().clock).get(`/ping/${check._id}`);
  beforeEach(async () => {
    project = await buildProject({ pingLogLimit: 10 });
  });

  it('on ping 100 deletes pings with n ≤ 100 − ping_log_limit', async () => {
    const check = await buildCheck(project, { nPings: 99, status: 'up', lastPing: daysAgo(1) });
    await seedPings(check, 99, () => daysAgo(1));
    await ping(check);
    expect((await storedPings(check._id)).map((p) => p.n)).to.deep.equal(Array.from({ length: 10 }, (_, i) => 91 + i));
  });

  it('leaves pings alone when n_pings is not a multiple of 100', async () => {
    const check = await buildCheck(project, { nPings: 98 });
    await seedPings(check, 98, () => daysAgo(1));
    await ping(check);
    expect(await storedPings(check._id)).to.have.length(99);
  });

  it('deletes flips older than 93 days when the remaining pings are newer', async () => {
    const check = await buildCheck(project, { nPings: 99 });
    await seedPings(check, 99, () => daysAgo(1));
    await seedFlip(check, daysAgo(100));
    await seedFlip(check, daysAgo(30));
    await ping(check);
    expect((await storedFlips(check._id)).map((f) => f.created)).to.deep.include(daysAgo(30)).and.not.deep.include(daysAgo(100));
  });

  it('keeps flips newer than the oldest remaining ping even past 93 days', async () => {
    const check = await buildCheck(project, { nPings: 99 });
    await seedPings(check, 99, (n) => daysAgo(300 - n));
    await seedFlip(check, daysAgo(250));
    await seedFlip(check, daysAgo(150));
    await ping(check);
    const kept = (await storedFlips(check._id)).map((f) => f.created);
    expect(kept).to.deep.include(daysAgo(150)).and.not.deep.include(daysAgo(250));
  });

  it('deletes notifications older than the oldest remaining ping', async () => {
    const check = await buildCheck(project, { nPings: 99 });
    await seedPings(check, 99, (n) => daysAgo(300 - n));
    await seedNotification(check, daysAgo(250));
    await seedNotification(check, daysAgo(150));
    await ping(check);
    expect(await notificationDates(check)).to.deep.equal([daysAgo(150)]);
  });

  it('keeps an old notification whose delivery has not finished', async () => {
    const check = await buildCheck(project, { nPings: 99 });
    await seedPings(check, 99, (n) => daysAgo(300 - n));
    await seedNotification(check, daysAgo(250), 'pending');
    await ping(check);
    expect(await notificationDates(check)).to.deep.equal([daysAgo(250)]);
  });
});
