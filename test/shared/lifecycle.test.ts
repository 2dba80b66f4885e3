import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedisServer, type LocalService } from '../../scripts/local-services.js';
import { createRedis } from '../../shared/queues/connections.js';
import { waitForRedis } from '../../shared/lifecycle.js';
import { freePort } from '../helpers/services.js';

describe('waitForRedis', () => {
  let dir: string;
  let service: LocalService | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-lifecycle-'));
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps waiting through refused connections until Redis comes up', async () => {
    const port = await freePort();
    const redis = createRedis(`redis://127.0.0.1:${port}`, 'worker');
    const waiting = waitForRedis(redis, 15_000);
    await sleep(300);
    service = await startRedisServer(port, join(dir, 'redis'));
    try {
      await waiting;
      expect(redis.status).to.equal('ready');
    } finally {
      redis.disconnect();
    }
  });

  it('rejects once the timeout passes without Redis', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, 'worker');
    try {
      const port = redis.options.port;
      await waitForRedis(redis, 500).then(
        () => expect.fail('resolved'),
        (err: Error) => expect(err.message).to.equal(`cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port} (after 500 ms)`),
      );
    } finally {
      redis.disconnect();
    }
  });
});
