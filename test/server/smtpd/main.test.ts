import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { freePort } from '../../helpers/services.js';
import { sendMail, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

const MAIN = fileURLToPath(new URL('../../../server/smtpd/main.js', import.meta.url));

/** Starts the smtpd process on the run's MongoDB and Redis; resolves once it logs that it listens. */
async function startProcess(port: number): Promise<ChildProcess> {
  const { services } = testContext();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      MONGODB_URI: services.mongoUri,
      REDIS_URL: services.redisUrl,
      SMTP_PORT: String(port),
      SMTP_HOST: '127.0.0.1',
      PING_EMAIL_DOMAIN: TEST_EMAIL_DOMAIN,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('smtpd listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`smtpd exited with ${code} before listening`)));
  });
  return child;
}

describe('smtpd process (server/smtpd/main.ts)', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('records email pings and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const check = await buildCheck(await buildProject());
    child = await startProcess(port);
    await sendMail(port, { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, subject: 'done', text: 'ok' });
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).to.equal(0);
    expect(await Ping.countDocuments({ checkId: check._id, scheme: 'email' })).to.equal(1);
  });
});
