import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliver } from '../../../../shared/notify/deliver.js';
import { channelSendsOn } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('shell provider', () => {
  let dir: string;
  let out: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hc-shell-'));
    out = join(dir, 'out.txt');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const enabled = (overrides = {}) => testNotifyConfig('', { shellEnabled: true, ...overrides });
  const failure = (promise: Promise<void>) => promise.then(() => null, (e: unknown) => e as DeliveryError);
  const exists = (path: string) => readFile(path).then(() => true, () => false);
  const value = (cmdDown: string, cmdUp = '') => JSON.stringify({ cmd_down: cmdDown, cmd_up: cmdUp });

  it('runs the command with the alert in environment variables', async () => {
    const cmd = `printf '%s|%s|%s|%s|%s|%s|%s\\n' "$NAME" "$STATUS" "$CODE" "$TAGS" "$TAG1" "$TAG2" "$NOW" > '${out}'`;
    await deliver({ kind: 'shell', value: value(cmd) }, sampleAlert({ name: "it's a&b" }), enabled());
    const expected = `it's a&b|down|${sampleAlert().checkId}|prod db|prod|db|2024-05-01T13:01:00+00:00\n`;
    expect(await readFile(out, 'utf8')).to.equal(expected);
  });

  it('runs the up command on up, from a plain value nothing on up', async () => {
    const up = { kind: 'shell', value: value('', `echo "$STATUS" > '${out}'`) };
    await deliver(up, sampleAlert({ status: 'up', reason: '' }), enabled());
    expect(await readFile(out, 'utf8')).to.equal('up\n');
    expect([channelSendsOn(up.kind, up.value, 'down'), channelSendsOn(up.kind, up.value, 'up')]).to.deep.equal([false, true]);
    expect(channelSendsOn('shell', 'echo hi', 'up')).to.equal(false);
  });

  it('fails without retry on a non-zero exit, with the first lines of stderr', async () => {
    const cmd = 'echo one >&2; echo two >&2; echo three >&2; echo four >&2; exit 3';
    const err = await failure(deliver({ kind: 'shell', value: cmd }, sampleAlert(), enabled()));
    expect(err).to.be.instanceOf(DeliveryError);
    expect([err!.message, err!.retryable, err!.permanent]).to.deep.equal(['command returned exit code 3: one | two | three', false, false]);
  });

  it('kills the command and what it started at the attempt timeout', async () => {
    const err = await failure(deliver({ kind: 'shell', value: `(sleep 1; touch '${out}') & wait` }, sampleAlert(), enabled({ attemptTimeoutMs: 200 })));
    expect([err!.message, err!.retryable]).to.deep.equal(['timed out after 200 ms', true]);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await exists(out)).to.equal(false);
  });

  it('does not leak the worker environment to the command', async () => {
    process.env.HC_SHELL_TEST_SECRET = 'hunter2';
    try {
      await deliver({ kind: 'shell', value: `echo "[$HC_SHELL_TEST_SECRET]" > '${out}'` }, sampleAlert(), enabled());
    } finally {
      delete process.env.HC_SHELL_TEST_SECRET;
    }
    expect(await readFile(out, 'utf8')).to.equal('[]\n');
  });

  it('refuses to run anything unless SHELL_ENABLED', async () => {
    const err = await failure(deliver({ kind: 'shell', value: `touch '${out}'` }, sampleAlert(), testNotifyConfig('', { shellEnabled: false })));
    expect([err!.message, err!.retryable]).to.deep.equal(['shell commands are not enabled (set SHELL_ENABLED=true)', false]);
    expect(await exists(out)).to.equal(false);
  });
});
