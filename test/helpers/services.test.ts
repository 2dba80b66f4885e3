import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { startRedisServer, type LocalService } from '../../scripts/local-services.js';
import { freePort, startTestServices, TEST_DB, type TestServices } from './services.js';
import { testContext } from './hooks.js';

const run = promisify(execFile);

/** The parent pid of a running process, from /proc. */
function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
}

describe('test services', () => {
  let dir: string;
  let developers: LocalService | undefined;
  let services: TestServices | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-test-services-'));
  });
  afterEach(async () => {
    await services?.stop();
    await developers?.stop();
    services = developers = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("the run's Redis is a redis-server this run started", async () => {
    const redis = new Redis(testContext().services.redisUrl);
    const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
    redis.disconnect();
    expect(parentOf(pid)).to.equal(process.pid);
  });

  it("never touches the Redis REDIS_URL names: a developer's data survives the tests' flush", async () => {
    const port = await freePort();
    developers = await startRedisServer(port, join(dir, 'redis'));
    const theirs = new Redis(port, '127.0.0.1', { db: 9 });
    await theirs.set('check:queued', 'keep me');
    services = await startTestServices({ REDIS_URL: `redis://127.0.0.1:${port}/9`, MONGODB_URI: 'mongodb://127.0.0.1:1/' });
    const ours = new Redis(services.redisUrl);
    await ours.flushall();
    ours.disconnect();
    expect(new URL(services.redisUrl).port).not.to.equal(String(port));
    expect(await theirs.get('check:queued')).to.equal('keep me');
    theirs.disconnect();
  });

  it('adds a database of its own, new for every run, to the MongoDB server MONGODB_URI names', async () => {
    services = await startTestServices({ MONGODB_URI: 'mongodb://127.0.0.1:27999/hc' });
    expect(services.mongoUri).to.equal(`mongodb://127.0.0.1:27999/${TEST_DB}`);
    expect(TEST_DB).to.match(new RegExp(`^hc_test_${process.pid}_[0-9a-f]{8}$`));
  });

  it('says in one line how to install redis-server when it is missing', async () => {
    const script = `import { startTestServices } from ${JSON.stringify(new URL('./services.js', import.meta.url).href)};
      startTestServices({}).catch((err) => { process.stderr.write(err.stack + '\\n'); process.exit(1); });`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: dir } }).catch((err: { stderr: string; code: number }) => err);
    expect(result).to.include({ code: 1, stderr: 'npm test: redis-server is not installed; run `sudo apt-get install -y redis-server`\n' });
  });
});
