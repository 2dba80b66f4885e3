/**
 * Runs the compiled hc-admin as a child process against the test database.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testContext } from '../../helpers/hooks.js';

const CLI = fileURLToPath(new URL('../../../scripts/hc-admin.js', import.meta.url));

/** What a run of hc-admin gave. */
export interface CliResult {
  /** Exit status. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/scripts/hc-admin.js ...args` with MONGODB_URI set to the
 * test run's database.
 *
 * @param env - Extra environment, applied last (e.g. another MONGODB_URI).
 * @param input - Standard input, when the command reads it (`--password-stdin`).
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, MONGODB_URI: testContext().services.mongoUri, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { code, stdout, stderr };
}

/** Parses stdout, which must hold exactly one JSON document on one line. */
export function jsonOf(result: CliResult): unknown {
  const lines = result.stdout.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) throw new Error(`expected one line on stdout, got ${lines.length}: ${result.stdout}`);
  return JSON.parse(lines[0]);
}

/** The first line of every run: which database hc-admin uses. */
export const DATABASE_LINE = /^hc-admin: database \S+ \((from MONGODB_URI|MONGODB_URI is unset: the default)\)$/;

/**
 * The lines written on stderr after the database line every run starts with.
 *
 * @throws Error when stderr does not start with the database line.
 */
export function stderrLines(result: CliResult): string[] {
  const [first, ...rest] = result.stderr.split('\n').filter((l) => l !== '');
  if (!first || !DATABASE_LINE.test(first)) throw new Error(`stderr does not start with the database line: ${result.stderr}`);
  return rest;
}
