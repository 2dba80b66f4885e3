/**
 * `shell`: runs a command on the worker (the reference's Shell transport), only when SHELL_ENABLED. The command gets
 * the alert in environment variables, the reference's placeholders as variables: `$CODE` (check UUID), `$STATUS`
 * (`down`/`up`), `$NOW` (flip time, ISO 8601 in seconds), `$NAME`, `$TAGS`, `$TAG1`, `$TAG2`…; of the worker's own
 * environment only `PATH`, `HOME`, `LANG` and `TZ`, so that its credentials stay out of reach.
 */
import { spawn } from 'node:child_process';
import Joi from 'joi';
import { isoSeconds } from '../message.js';
import { DeliveryError, type Alert, type Provider } from '../types.js';

/** Settings of a shell channel; an empty command sends nothing for that direction. */
export interface ShellSettings {
  cmd_down: string;
  cmd_up: string;
}

/** The reference's form limit, characters. */
const MAX_COMMAND = 1000;
const command = Joi.string().allow('').max(MAX_COMMAND).default('');
const schema = Joi.object({ cmd_down: command, cmd_up: command });

/** Bytes of stderr kept for the error message. */
const STDERR_BYTES = 4096;
/** Lines of stderr the error message quotes. */
const STDERR_LINES = 3;
/** Variables of the worker's environment a command sees. */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TZ'];

/** The command's environment: a few of the worker's variables and the alert's. */
export function shellEnv(alert: Alert): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    CODE: alert.checkId,
    STATUS: alert.status,
    NOW: isoSeconds(alert.at),
    NAME: alert.name,
    TAGS: alert.tags,
  });
  alert.tags
    .split(' ')
    .filter((tag) => tag !== '')
    .forEach((tag, i) => (env[`TAG${i + 1}`] = tag));
  return env;
}

/** The first lines of a command's stderr, joined into one line. */
function firstLines(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, STDERR_LINES)
    .join(' | ');
}

/**
 * Runs `cmd` with `/bin/sh -c` in its own process group; at `signal`'s abort the whole group is killed.
 * @throws DeliveryError: not retryable for a non-zero exit (with the first lines of stderr) or a command that cannot
 *   start; the signal's reason (the attempt's timeout) when it aborts.
 */
function run(cmd: string, env: Record<string, string>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const child = spawn('/bin/sh', ['-c', cmd], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_BYTES) stderr += chunk.slice(0, STDERR_BYTES - stderr.length);
    });
    const onAbort = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(new DeliveryError(`could not run the command: ${err.message}`, false));
    });
    child.on('close', (code, killed) => {
      signal.removeEventListener('abort', onAbort);
      if (code === 0) return resolve();
      const how = code === null ? `was killed by ${killed}` : `returned exit code ${code}`;
      const lines = firstLines(stderr);
      reject(new DeliveryError(`command ${how}${lines ? `: ${lines}` : ''}`, false));
    });
  });
}

/** `shell`. */
export const shell: Provider<ShellSettings> = {
  main: 'cmd_down',
  schema,
  sendsOn: (settings, status) => settings[`cmd_${status}`] !== '',
  async send({ settings, alert, config, signal }) {
    if (!config.shellEnabled) throw new DeliveryError('shell commands are not enabled (set SHELL_ENABLED=true)', false);
    const cmd = settings[`cmd_${alert.status}`];
    if (cmd === '') return;
    await run(cmd, shellEnv(alert), signal);
  },
};
