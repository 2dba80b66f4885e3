import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEVELOPMENT_SECRET_KEY, loadConfig } from '../../shared/config.js';

const WEB = fileURLToPath(new URL('../../server/main.js', import.meta.url));

/** Runs the web process with exactly `env` (plus PATH) and collects what it printed. */
async function runWeb(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [WEB], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

describe('shared/config: safe defaults', () => {
  it('refuses production without SECRET_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).to.throw('bad configuration: SECRET_KEY must be set when NODE_ENV=production');
  });

  it('refuses production with the development SECRET_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: DEVELOPMENT_SECRET_KEY })).to.throw(/must not be the development value/);
  });

  it('takes production with a SECRET_KEY of its own', () => {
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: 's3cr3t' }).secretKey).to.equal('s3cr3t');
  });

  it('falls back to the development SECRET_KEY outside production', () => {
    expect(loadConfig({}).secretKey).to.equal(DEVELOPMENT_SECRET_KEY);
  });

  it('refuses private provider targets unless INTEGRATIONS_ALLOW_PRIVATE_IPS is on', () => {
    expect(loadConfig({}).notify.allowPrivateIps).to.equal(false);
    expect(loadConfig({ INTEGRATIONS_ALLOW_PRIVATE_IPS: 'true' }).notify.allowPrivateIps).to.equal(true);
  });

  it('reads a ping body up to 1 MiB by default, and never less than PING_BODY_LIMIT', () => {
    expect(loadConfig({}).pingBodyReadCapBytes).to.equal(1024 * 1024);
    expect(() => loadConfig({ PING_BODY_LIMIT: '5000', PING_BODY_READ_CAP: '4000' })).to.throw(/PING_BODY_READ_CAP/);
  });

  it('stops the web process in production without SECRET_KEY with one line on stderr', async () => {
    const result = await runWeb({ NODE_ENV: 'production' });
    expect([result.code, result.stderr, result.stdout]).to.deep.equal([
      1,
      'bad configuration: SECRET_KEY must be set when NODE_ENV=production\n',
      '',
    ]);
  });
});
