/**
 * Channel tools for the admin CLI: a test alert through a channel
 * (`hc-admin channel test`) and each channel's last delivery outcome
 * (`hc-admin channel list`).
 */
import { randomUUID } from 'node:crypto';
import { config as appConfig, type NotifyConfig } from '../config.js';
import { AppError } from '../errors.js';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { deliver } from './deliver.js';
import type { Alert } from './types.js';

/** A channel's last delivery outcome. */
export interface ChannelDeliveryState {
  /** Error text of the last attempt; `""` when it delivered or none ran. */
  lastError: string;
  /** When the last attempt finished, or null. */
  lastNotify: Date | null;
  /** Turned off by a permanent error (behaviour.md §6 rule 5). */
  disabled: boolean;
}

/**
 * The last delivery outcome of each channel of a project.
 *
 * @param projectId - Project UUID.
 * @returns Channel UUID → its state; channels of other projects are absent.
 */
export async function lastErrorsByChannel(projectId: string): Promise<Map<string, ChannelDeliveryState>> {
  const channels = await Channel.find({ projectId }, { lastError: 1, lastNotify: 1, disabled: 1 }).lean<ChannelDoc[]>();
  return new Map(
    channels.map((c) => [c._id, { lastError: c.lastError ?? '', lastNotify: c.lastNotify ?? null, disabled: c.disabled ?? false }]),
  );
}

/** The sample alert of a test: a check named `TEST` that went down now. */
function testAlert(now: Date, baseUrl: string): Alert {
  const checkId = randomUUID();
  return {
    id: randomUUID(),
    checkId,
    name: 'TEST',
    tags: '',
    desc: 'This is a test notification.',
    status: 'down',
    reason: 'timeout',
    at: now,
    lastPing: null,
    detailsUrl: `${baseUrl}/api/v3/checks/${checkId}`,
  };
}

/**
 * Sends a test alert through a channel, once, without retries and without
 * touching its delivery history. A disabled channel is tested too (that is
 * how one checks it works again).
 *
 * @param channelId - Channel UUID.
 * @param config - Provider settings; default `config.notify`.
 * @param now - The alert's moment.
 * @returns The channel that was tested.
 * @throws AppError(404) `channel not found: <id>`; AppError(502) `test notification failed: <error>`.
 */
export async function sendTestNotification(
  channelId: string,
  config: NotifyConfig = appConfig.notify,
  now: Date = new Date(),
): Promise<ChannelDoc> {
  const channel = await Channel.findById(channelId).lean<ChannelDoc>();
  if (!channel) throw new AppError(404, `channel not found: ${channelId}`);
  try {
    await deliver(channel, testAlert(now, config.baseUrl), config);
  } catch (err) {
    throw new AppError(502, `test notification failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return channel;
}
