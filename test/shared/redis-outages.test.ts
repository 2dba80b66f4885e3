import { expect } from 'chai';
import { Queue } from 'bullmq';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startRedisServer, type LocalService } from '../../scripts/local-services.js';
import { createRedis } from '../../shared/queues/connections.js';
import { reportRedisOutages } from '../../shared/redis-outages.js';
import { waitFor } from '../helpers/poll.js';
import { freePort } from '../helpers/services.js';

/** A pino logger whose lines are kept, parsed. */
function capturingLogger() {
  const lines: { level: number; msg: string; reason?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('reportRedisOutages', () => {
  let dir: string;
  let service: LocalService | undefined;
  const originalError = console.error;
  let consoleErrors: unknown[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-outages-'));
    consoleErrors = [];
    // BullMQ and ioredis print unhandled connection errors with console.error.
    console.error = (...args: unknown[]) => void consoleErrors.push(args);
  });
  afterEach(async () => {
    console.error = originalError;
    await service?.stop();
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs one line when Redis goes away and one when it is back, whatever the retries and queues', async () => {
    const port = await freePort();
    service = await startRedisServer(port, join(dir, 'redis'));
    const redis = createRedis(`redis://127.0.0.1:${port}`, 'web');
    const queue = new Queue('outage-test', { connection: redis });
    const { log, lines } = capturingLogger();
    reportRedisOutages(redis, log, [queue]);
    try {
      await waitFor('ready', async () => redis.status === 'ready');
      await service.stop();
      service = undefined;
      await waitFor('several reconnection attempts', async () => (redis as unknown as { retryAttempts: number }).retryAttempts >= 4, 10_000);
      service = await startRedisServer(port, join(dir, 'redis'));
      await waitFor('the connection to come back', async () => lines.some((l) => l.msg === 'Redis reachable again'), 10_000);
      expect(lines.map((l) => l.msg)).to.deep.equal(['Redis unreachable; retrying', 'Redis reachable again']);
      expect(lines[0]?.reason).to.match(/ECONNREFUSED|ECONNRESET|Connection is closed/);
      expect(consoleErrors).to.deep.equal([]);
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });

  it('says nothing before the first ready when asked to (waitForRedis reports that case)', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, 'web');
    const { log, lines } = capturingLogger();
    const outages = reportRedisOutages(redis, log, [], { quietUntilReady: true });
    try {
      await waitFor('a connection error', async () => outages.lastReason() !== undefined);
      expect([lines.length, consoleErrors.length]).to.deep.equal([0, 0]);
      expect(outages.lastReason()).to.match(/^connect ECONNREFUSED/);
    } finally {
      redis.disconnect();
    }
  });
});
