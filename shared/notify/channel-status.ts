/** A test alert through a channel, for `hc-admin channel test`. */
import { randomUUID } from 'node:crypto';
import { config as appConfig, type NotifyConfig } from '../config.js';
import { AppError } from '../errors.js';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { deliver } from './deliver.js';
import { checkPageUrl } from './message.js';
import type { Alert } from './types.js';

/** The sample alert of a test: a check named `TEST` that went down now. */
function testAlert(now: Date, baseUrl: string, projectId: string): Alert {
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
    detailsUrl: checkPageUrl(baseUrl, projectId, checkId),
    updateUrl: `${baseUrl}/api/v3/checks/${checkId}`,
  };
}

/**
 * Sends a test alert through a channel once (a disabled one too: that is how one checks it works again), without
 * retries or delivery history; returns the channel.
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
    await deliver(channel, testAlert(now, config.baseUrl, channel.projectId), config);
  } catch (err) {
    throw new AppError(502, `test notification failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return channel;
}
