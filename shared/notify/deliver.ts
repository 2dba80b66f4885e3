/** One delivery attempt: the provider gets an AbortSignal, and the attempt stops waiting at the timeout anyway. */
import type { NotifyConfig } from '../config.js';
import { AppError } from '../errors.js';
import { channelSendsOn, parseChannelSettings, providerOf } from './kinds.js';
import { DeliveryError, type Alert, type DeliveryChannel } from './types.js';

/**
 * Sends `alert` through `channel` within `config.attemptTimeoutMs` milliseconds.
 * @throws DeliveryError: retryable for network errors, timeouts, 429, 5xx and SMTP 4xx; not retryable for other
 *   refusals and for a channel value that does not validate.
 * @param channel - Kind and value; `projectId` too for a `group` (its members are looked up in that project).
 */
export async function deliver(channel: DeliveryChannel, alert: Alert, config: NotifyConfig): Promise<void> {
  let settings: object;
  try {
    settings = parseChannelSettings(channel.kind, channel.value);
  } catch (err) {
    if (err instanceof AppError) throw new DeliveryError(err.message, false);
    throw err;
  }
  const provider = providerOf(channel.kind);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // Built only when it happens: an error's stack trace costs more than the rest of a delivery's bookkeeping.
      const timedOut = new DeliveryError(`timed out after ${config.attemptTimeoutMs} ms`, true);
      controller.abort(timedOut);
      reject(timedOut);
    }, config.attemptTimeoutMs);
  });
  try {
    const deliverTo = (member: DeliveryChannel, memberAlert: Alert) => deliverMember(member, memberAlert, config);
    const ctx = { settings, alert, config, signal: controller.signal, projectId: channel.projectId, channel, deliverTo };
    await Promise.race([provider.send(ctx), deadline]);
  } catch (err) {
    if (err instanceof DeliveryError) throw err;
    throw new DeliveryError(err instanceof Error ? err.message : String(err), true);
  } finally {
    clearTimeout(timer);
  }
}

/** `SendContext.deliverTo`: {@link deliver} unless the channel sends nothing on the alert's status. */
async function deliverMember(channel: DeliveryChannel, alert: Alert, config: NotifyConfig): Promise<boolean> {
  if (!channelSendsOn(channel.kind, channel.value, alert.status)) return false;
  await deliver(channel, alert, config);
  return true;
}
