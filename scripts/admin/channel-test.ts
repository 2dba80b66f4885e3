/**
 * `hc-admin channel test --id ID`: sends a test alert through a channel.
 * Prints `{"id", "name", "kind", "ok": true}`; a failed delivery is one line
 * on stderr (`hc-admin: test notification failed: <error>`), exit status 1.
 */
import type { Command } from 'commander';
import { sendTestNotification } from '../../shared/notify/channel-status.js';
import { printJson, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

/** Runs database work inside a connected session (hc-admin's {@link withDb}). */
export type DbSession = <T>(work: () => Promise<T>) => Promise<T>;

/** Options of {@link registerChannelTest}. */
export interface ChannelTestOptions {
  /** Default {@link withDb}: connect to MONGODB_URI, run, disconnect. */
  session?: DbSession;
  /** Default {@link printJson}: one JSON line on stdout. */
  print?: (value: unknown) => void;
}

/**
 * Adds `test` to the program's `channel` command (creating `channel` if it is not there yet).
 *
 * @param program - The root command.
 * @param options - Session and output; the defaults suit the CLI.
 */
export function registerChannelTest(program: Command, options: ChannelTestOptions = {}): void {
  const session = options.session ?? withDb;
  const print = options.print ?? printJson;
  const group = program.commands.find((c) => c.name() === 'channel') ?? program.command('channel');
  group
    .command('test')
    .description('send a test alert through a channel')
    .requiredOption('--id <id>', 'channel UUID')
    .action(async (opts: { id: string }) => {
      const channel = await session(() => sendTestNotification(opts.id));
      print({ id: channel._id, name: channel.name, kind: channel.kind, ok: true });
    });
}

/** The command group entry point hc-admin loads (after `channel.js`, whose group it extends). */
export const register: RegisterGroup = (program) => registerChannelTest(program);
