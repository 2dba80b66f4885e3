/**
 * `hc-admin channel …`: creating, listing and deleting channels (integrations).
 */
import type { Command } from 'commander';
import { createChannel, deleteChannel, listChannels } from '../../shared/services/channels.js';
import type { ChannelDoc } from '../../shared/models/channel.js';
import { mailConfirmations } from '../../shared/services/email-channels.js';
import { config } from '../../shared/config.js';
import { printJson, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

interface CreateOptions {
  project: string;
  kind: string;
  name: string;
  value: string;
  confirmed?: boolean;
}

/** Mails an email channel's unconfirmed addresses their confirmation (SMTP_URL); a failure is one line on stderr, not an exit status. */
async function mailUnconfirmed(channel: ChannelDoc): Promise<void> {
  const addresses = channel.unconfirmed ?? [];
  if (addresses.length === 0) return;
  await mailConfirmations(channel, addresses, config.notify, new Date()).catch((err: unknown) => {
    process.stderr.write(`hc-admin: cannot mail the confirmation of ${addresses.join(', ')} (alerts wait for it; --confirmed skips it): ${String(err)}\n`);
  });
}

function summary(channel: ChannelDoc): { id: string; name: string; kind: string } {
  return { id: channel._id, name: channel.name, kind: channel.kind };
}

/**
 * Adds the channel commands:
 * - `channel create --project ID --kind KIND --name NAME --value VALUE [--confirmed]` prints `{"id", "name", "kind"}`;
 *   an email channel's addresses are mailed a confirmation and get no alert until confirmed, unless `--confirmed`;
 * - `channel list --project ID` prints ONE JSON array of
 *   `{"id", "name", "kind", "value", "disabled", "last_error", "last_notify"}`, oldest first
 *   (`last_error` is `""` when the last delivery worked or none ran; `last_notify` is an ISO time or null);
 * - `channel delete --id ID` prints the deleted channel's `{"id", "name", "kind"}` and
 *   unassigns it from the project's checks.
 *
 * @param program - The root command.
 */
export const register: RegisterGroup = (program: Command) => {
  const group = program.command('channel').description('manage channels (integrations)');
  group
    .command('create')
    .description("create a channel in a project; VALUE is the kind's setting or a JSON document")
    .requiredOption('--project <id>', 'project UUID')
    .requiredOption('--kind <kind>', 'channel kind, e.g. email, webhook, slack')
    .requiredOption('--name <name>', 'channel name')
    .requiredOption('--value <value>', "the kind's setting")
    .option('--confirmed', "an email channel's addresses count as confirmed: no confirmation mail")
    .action(async (opts: CreateOptions) => {
      const input = { projectId: opts.project, kind: opts.kind, name: opts.name, value: opts.value };
      const channel = await withDb(() => createChannel(input, new Date(), opts.confirmed === true));
      await mailUnconfirmed(channel);
      printJson(summary(channel));
    });
  group
    .command('list')
    .description("print a project's channels as one JSON array")
    .requiredOption('--project <id>', 'project UUID')
    .action(async (opts: { project: string }) => {
      const channels = await withDb(() => listChannels(opts.project));
      printJson(
        channels.map((c) => ({
          ...summary(c),
          value: c.value,
          disabled: c.disabled ?? false,
          last_error: c.lastError ?? '',
          last_notify: c.lastNotify?.toISOString() ?? null,
        })),
      );
    });
  group
    .command('delete')
    .description('delete a channel and unassign it from its checks')
    .requiredOption('--id <id>', 'channel UUID')
    .action(async (opts: { id: string }) => {
      printJson(summary(await withDb(() => deleteChannel(opts.id))));
    });
};
