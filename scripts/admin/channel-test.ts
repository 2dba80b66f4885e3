/**
 * `hc-admin channel test --id ID`: sends a test alert through a channel.
 * Prints `{"id", "name", "kind", "ok": true}`; a failed delivery is reported
 * as one line on stderr (`test notification failed: <error>`), exit status 1.
 */
import { Command } from 'commander';
import mongoose from 'mongoose';
import { config } from '../../shared/config.js';
import '../../shared/models/index.js';
import { sendTestNotification } from '../../shared/notify/channel-status.js';

/** Runs database work inside a connected session (hc-admin's `withDb`). */
export type DbSession = <T>(work: () => Promise<T>) => Promise<T>;

/** Options of {@link registerChannelTest}. */
export interface ChannelTestOptions {
  /** Default: connect to `config.mongodbUri`, run, disconnect. hc-admin passes its own `withDb`. */
  session?: DbSession;
  /** Default: one JSON line on stdout. */
  print?: (value: unknown) => void;
}

/** How long to look for a reachable MongoDB, milliseconds. */
const SERVER_SELECTION_TIMEOUT_MS = 5000;

const ownSession: DbSession = async (work) => {
  await mongoose.connect(config.mongodbUri, { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS, autoIndex: false });
  try {
    return await work();
  } finally {
    await mongoose.disconnect();
  }
};

/**
 * Adds `test` to the program's `channel` command (creating `channel` if it is not there yet).
 *
 * @param program - The root command.
 * @param options - Session and output; the defaults suit the standalone CLI.
 */
export function registerChannelTest(program: Command, options: ChannelTestOptions = {}): void {
  const session = options.session ?? ownSession;
  const print = options.print ?? ((value: unknown) => void process.stdout.write(`${JSON.stringify(value)}\n`));
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
