/** Which channels alert on a flip (docs/alerts.md, "Who gets alerted"). */
import { Channel, type ChannelDoc } from '../models/channel.js';
import type { CheckDoc } from '../models/check.js';
import { channelSendsOn } from './kinds.js';
import type { AlertStatus } from './types.js';

/**
 * The check's channels that alert on a flip into `status`: assigned, in its project, not disabled, not skipping this
 * direction; fastest last delivery first, never-used last.
 */
export async function selectChannels(check: Pick<CheckDoc, 'projectId' | 'channels'>, status: AlertStatus): Promise<ChannelDoc[]> {
  if (check.channels.length === 0) return [];
  const channels = await Channel.find({ _id: { $in: check.channels }, projectId: check.projectId, disabled: { $ne: true } }).lean<ChannelDoc[]>();
  const never = Number.POSITIVE_INFINITY;
  return channels
    .filter((channel) => channelSendsOn(channel.kind, channel.value, status))
    .sort((a, b) => (a.lastNotifyDurationMs ?? never) - (b.lastNotifyDurationMs ?? never) || a.created.getTime() - b.created.getTime());
}
