import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { isListening, startRedisServer } from '../../scripts/local-services.js';
import { freePort } from '../helpers/services.js';
import { testContext } from '../helpers/hooks.js';

describe('local services for npm start', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-local-services-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('isListening tells a port in use from a free one', async () => {
    const used = Number(new URL(testContext().services.redisUrl).port);
    expect(await isListening(used)).to.equal(true);
    expect(await isListening(await freePort())).to.equal(false);
  });

  it('startRedisServer serves Redis on the port with its data in the directory', async () => {
    const port = await freePort();
    const service = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    const configDir = (await client.config('GET', 'dir'));
    client.disconnect();
    await service.stop();
    expect(configDir[1]).to.equal(join(dir, 'redis'));
    expect(await isListening(port)).to.equal(false);
  });

  it('startRedisServer runs Redis with the required settings: AOF every second, no eviction, hz 100', async () => {
    const port = await freePort();
    const service = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    const settings = await Promise.all(['appendonly', 'appendfsync', 'maxmemory-policy', 'hz'].map(async (name) => ((await client.config('GET', name)))[1]));
    client.disconnect();
    await service.stop();
    expect(settings).to.deep.equal(['yes', 'everysec', 'noeviction', '100']);
  });

  it('startRedisServer keeps a write acknowledged a second before a kill -9', async () => {
    const port = await freePort();
    const first = await startRedisServer(port, join(dir, 'redis'));
    const client = new Redis(port, '127.0.0.1');
    await client.set('kept', 'yes');
    const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
    client.disconnect();
    await sleep(1_500);
    process.kill(pid, 'SIGKILL');
    await first.stop();
    expect(existsSync(join(dir, 'redis', 'appendonlydir'))).to.equal(true);
    const second = await startRedisServer(port, join(dir, 'redis'));
    const again = new Redis(port, '127.0.0.1');
    expect(await again.get('kept')).to.equal('yes');
    again.disconnect();
    await second.stop();
  });

  it('startRedisServer rejects when the program is missing', async () => {
    const error = await startRedisServer(await freePort(), join(dir, 'redis'), 'no-such-redis-server').catch((err: Error) => err);
    expect(error).to.be.instanceOf(Error).with.property('message', 'redis-server: spawn no-such-redis-server ENOENT');
  });
});
