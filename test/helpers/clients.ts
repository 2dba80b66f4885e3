/**
 * Third-party Healthchecks clients for the tests in test/clients/: installing
 * them (a Python venv from PyPI, a Go program built through the Go module
 * proxy, both under the gitignored .data/clients/) and running them.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from dist/test/helpers/). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where installed clients live. */
const CLIENTS_DIR = `${REPO_ROOT}.data/clients`;

/** How a finished command ended. */
export interface RunResult {
  /** Exit status; null when killed by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` to completion, killing it after `timeoutMs` milliseconds.
 *
 * @returns Its exit status and output (never rejects for a non-zero exit).
 * @throws Error when it cannot be started (for example not installed).
 */
export async function run(command: string, args: string[], options: { cwd?: string; timeoutMs: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${err.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `command` and requires exit status 0.
 *
 * @throws Error with the command's stderr when it fails.
 */
async function runOk(command: string, args: string[], options: { cwd?: string; timeoutMs: number }): Promise<void> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${result.stderr}${result.stdout}`);
  }
}

/**
 * A venv with test/clients/python/requirements.txt installed from PyPI,
 * re-created whenever that file changes.
 *
 * @returns The venv's python executable.
 * @throws Error with pip's or venv's output when installing fails.
 */
export async function pythonClient(): Promise<string> {
  const venv = `${CLIENTS_DIR}/python`;
  const requirements = `${REPO_ROOT}test/clients/python/requirements.txt`;
  const stamp = `${venv}/installed-requirements.txt`;
  const wanted = await readFile(requirements, 'utf8');
  const installed = existsSync(stamp) ? await readFile(stamp, 'utf8') : undefined;
  if (installed !== wanted) {
    await mkdir(CLIENTS_DIR, { recursive: true });
    await runOk('python3', ['-m', 'venv', '--clear', venv], { timeoutMs: 120_000 });
    const pip = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-q', '-r', requirements];
    await runOk(`${venv}/bin/python`, pip, { timeoutMs: 300_000 });
    await writeFile(stamp, wanted);
  }
  return `${venv}/bin/python`;
}

/**
 * Builds test/clients/go (the Go module proxy serves its dependencies; Go's
 * build cache makes a rebuild cheap).
 *
 * @returns The built executable.
 * @throws Error with the go command's output when the build fails.
 */
export async function goClient(): Promise<string> {
  const binary = `${CLIENTS_DIR}/go-client`;
  await mkdir(CLIENTS_DIR, { recursive: true });
  await runOk('go', ['build', '-o', binary, '.'], { cwd: `${REPO_ROOT}test/clients/go`, timeoutMs: 300_000 });
  return binary;
}

/** One JSON line a client driver printed: the step's name and what it saw. */
export type Step = { step: string } & Record<string, any>;

/**
 * The steps a client driver printed on stdout, by name.
 *
 * @throws Error when a line is not JSON.
 */
export function stepsOf(stdout: string): Map<string, Step> {
  const steps = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Step);
  return new Map(steps.map((step) => [step.step, step]));
}
