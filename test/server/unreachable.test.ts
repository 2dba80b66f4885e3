import { expect } from 'chai';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput, type Child } from '../helpers/processes.js';

/** Lines a child printed (stdout and stderr). */
function linesOf(child: Child): string[] {
  return child.output().split('\n').filter(Boolean);
}

/** Waits for the child to exit and returns its exit code. */
async function exitOf(child: Child): Promise<number | null> {
  if (child.process.exitCode !== null) return child.process.exitCode;
  return new Promise((resolve) => child.process.once('exit', (code) => resolve(code)));
}

/** The processes that talk to MongoDB and Redis, with a 1 s boot timeout. */
const PROCESSES = ['server/main.js', 'workers/main.js'];
const FAST = { CONNECT_TIMEOUT_MS: '1000' };

describe('an unreachable MongoDB or Redis is one line, not a stack trace per retry', () => {
  afterEach(killChildren);

  it('web and worker stop with one line naming the Redis they looked for', async () => {
    const port = await freePort();
    const children = PROCESSES.map((script) => startNode(script, { ...FAST, REDIS_URL: `redis://127.0.0.1:${port}/3`, PORT: '0' }));
    expect(await Promise.all(children.map(exitOf))).to.deep.equal([1, 1]);
    for (const child of children) {
      const lines = linesOf(child);
      expect(lines).to.have.lengthOf(1);
      expect(JSON.parse(lines[0]).err.message).to.equal(`cannot reach Redis at 127.0.0.1:${port}/3: connect ECONNREFUSED 127.0.0.1:${port} (after 1000 ms)`);
    }
  });

  it('web, worker and smtpd stop with one line naming the MongoDB they looked for, without its password', async () => {
    const port = await freePort();
    const env = { ...FAST, MONGODB_URI: `mongodb://admin:hunter2@127.0.0.1:${port}/hc_prod`, PORT: '0', SMTP_PORT: '0' };
    const children = [...PROCESSES, 'server/smtpd/main.js'].map((script) => startNode(script, env));
    expect(await Promise.all(children.map(exitOf))).to.deep.equal([1, 1, 1]);
    for (const child of children) {
      const lines = linesOf(child);
      expect(lines).to.have.lengthOf(1);
      expect(JSON.parse(lines[0]).err.message).to.equal(`cannot reach MongoDB at 127.0.0.1:${port}/hc_prod: connect ECONNREFUSED 127.0.0.1:${port}`);
      expect(child.output()).to.not.include('hunter2');
    }
  });

  it('smtpd keeps running without Redis and says so once', async () => {
    const smtpd = startNode('server/smtpd/main.js', { ...FAST, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, SMTP_PORT: '0' });
    await waitForOutput(smtpd, 'Redis unreachable; retrying');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const messages = linesOf(smtpd).map((l) => JSON.parse(l).msg);
    expect(messages).to.deep.equal(['smtpd listening', 'Redis unreachable; retrying']);
    expect(await smtpd.stop()).to.equal(0);
  });
});
