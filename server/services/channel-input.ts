/**
 * An integration's input checked before it is stored, for the Management API's `integrations/` extension and the web
 * app's forms: the payload turned into a stored value, with errors in the API's `json validation error: …` form and
 * URLs to private addresses refused unless INTEGRATIONS_ALLOW_PRIVATE_IPS; a group's members checked in the project;
 * a project's channel found by id. Storing, listing and deleting channels is shared/services/channels.ts.
 */
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { config } from '../../shared/config.js';
import { AppError, notFound } from '../../shared/errors.js';
import { assertPublicLiteral, PrivateTargetError } from '../../shared/notify/egress.js';
import { ChannelValueError, parseChannelSettings, validateChannelValue } from '../../shared/notify/kinds.js';
import type { ProjectDoc } from '../../shared/models/project.js';
import { assertGroupMembers } from '../../shared/services/channels.js';
import { VALIDATION_PREFIX } from '../schemas/parse.js';

/** Host names that always mean this machine. */
const LOCAL_NAME_RE = /(^|\.)localhost\.?$/i;

/**
 * The value to store for `kind` from the payload's `value` (text, or settings as an object); what needs the database
 * (a group's members) is {@link assertChannelMembers}'s.
 * @param allowPrivateIps - INTEGRATIONS_ALLOW_PRIVATE_IPS.
 * @param shellEnabled - SHELL_ENABLED: without it a `shell` channel is refused.
 * @throws ChannelValueError (an AppError(400)) `json validation error: <problem>`, naming the setting when one is at fault:
 *   an unknown kind, invalid settings, a URL to a private address, or a `shell` channel when shell commands are not enabled.
 */
export function channelValueOf(
  kind: string,
  value: string | Record<string, unknown>,
  allowPrivateIps = config.notify.allowPrivateIps,
  shellEnabled = config.notify.shellEnabled,
): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    if (kind === 'shell' && !shellEnabled) throw new AppError(400, 'shell commands are not enabled on this server (SHELL_ENABLED)');
    const stored = validateChannelValue(kind, text);
    if (!allowPrivateIps) assertPublicUrls(parseChannelSettings(kind, stored));
    return stored;
  } catch (err) {
    if (err instanceof AppError && err.status === 400) {
      throw new ChannelValueError(VALIDATION_PREFIX + err.message, err instanceof ChannelValueError ? err.setting : undefined);
    }
    throw err;
  }
}

/**
 * Checks a valid value's references to other channels: a `group`'s members must be channels of the project, neither
 * the group itself (`selfId`, on an update) nor groups.
 * @throws AppError(400) `json validation error: invalid channel value: member <uuid> …`.
 */
export async function assertChannelMembers(projectId: string, kind: string, value: string, selfId?: string): Promise<void> {
  try {
    await assertGroupMembers(projectId, kind, value, selfId);
  } catch (err) {
    if (err instanceof AppError && err.status === 400) throw new AppError(400, VALIDATION_PREFIX + err.message);
    throw err;
  }
}

/**
 * @throws ChannelValueError naming the setting, for a URL among the settings whose host is a private IP literal or
 *   `localhost` (names are checked when sending).
 */
function assertPublicUrls(settings: object): void {
  for (const [setting, value] of Object.entries(settings)) {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) continue;
    try {
      assertPublicLiteral(value);
      const host = new URL(value).hostname;
      if (LOCAL_NAME_RE.test(host)) throw new PrivateTargetError(host, 'loopback');
    } catch (err) {
      if (err instanceof PrivateTargetError) throw new ChannelValueError(`invalid channel value: ${err.message}`, setting);
      throw err;
    }
  }
}

/**
 * The channel `id` names, in the key's project.
 * @throws AppError(404) `not found` for an unknown or malformed UUID; AppError(403) when it belongs to another project.
 */
export async function channelOf(project: ProjectDoc, id: string): Promise<ChannelDoc> {
  const channel = await Channel.findById(id).lean<ChannelDoc>();
  if (!channel) throw notFound();
  if (channel.projectId !== project._id) throw new AppError(403, 'channel belongs to another project');
  return channel;
}
