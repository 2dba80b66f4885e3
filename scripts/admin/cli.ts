/**
 * Plumbing shared by the hc-admin command groups: the program's settings,
 * option parsers, JSON output and the one-line failure report.
 *
 * This module must not import `shared/config.ts` (directly or not): the entry
 * point loads it after adjusting the environment, and reports a bad
 * configuration as one line like any other failure.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AppError } from '../../shared/errors.js';

/** Exit status of a failure (unknown id, MongoDB unreachable, anything unexpected). */
export const EXIT_FAILURE = 1;
/** Exit status of bad usage (missing or malformed option, invalid channel value). */
export const EXIT_USAGE = 2;

/** What a command group module exports: adds its commands to the program. */
export type RegisterGroup = (program: Command) => void;

/**
 * The root command. Commander's own messages are suppressed and surface
 * through {@link reportFailure}, so a failure is always exactly one line.
 */
export function createProgram(): Command {
  return new Command('hc-admin')
    .description('Administration of projects and channels; prints JSON on stdout')
    .exitOverride()
    .showSuggestionAfterError(false)
    .configureOutput({ writeErr: () => undefined, outputError: () => undefined });
}

/**
 * Parser for a whole-number option.
 *
 * @param min - Smallest accepted value.
 * @returns A commander argument parser.
 */
export function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`expected a whole number of at least ${min}.`);
    }
    return n;
  };
}

/** Writes `value` as one line of JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() || 'unknown error';
}

function messageOf(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CommanderError) {
    // `commander.help` is the help shown for a group given no command.
    if (err.code === 'commander.help') return { message: 'missing command (see hc-admin --help)', exitCode: EXIT_USAGE };
    return { message: err.message.replace(/^error: /, ''), exitCode: EXIT_USAGE };
  }
  if (err instanceof AppError) {
    return { message: err.message, exitCode: err.status === 400 ? EXIT_USAGE : EXIT_FAILURE };
  }
  return { message: err instanceof Error ? err.message : String(err), exitCode: EXIT_FAILURE };
}

/**
 * Reports a failure as exactly one line on stderr, never a stack trace.
 *
 * @param err - Whatever the command threw.
 * @returns The process exit status: 0 after `--help`/`--version`, else
 *   {@link EXIT_USAGE} or {@link EXIT_FAILURE}.
 */
export function reportFailure(err: unknown): number {
  if (err instanceof CommanderError && err.exitCode === 0) return 0;
  const { message, exitCode } = messageOf(err);
  process.stderr.write(`hc-admin: ${firstLine(message)}\n`);
  return exitCode;
}
