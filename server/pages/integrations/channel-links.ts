/**
 * Email channels' address links (docs/web-app.md, Integrations): the confirmation mailed to a new address (its page shows a
 * button; the POST confirms) and the one-click unsubscribe of every alert (RFC 8058: its GET shows a page with a
 * button; a POST, from that page or from the mail client, unsubscribes without a session or CSRF token, the signed
 * link being the proof). Confirmation mails are limited per address and per client like the other mailed links.
 */
import { Router, type Request } from 'express';
import { AppError } from '../../../shared/errors.js';
import { logger } from '../../../shared/logger.js';
import { config } from '../../../shared/config.js';
import type { ChannelDoc } from '../../../shared/models/channel.js';
import { addressOfLink, confirmAddress, mailConfirmations, unsubscribeAddress } from '../../../shared/services/email-channels.js';
import type { Clock } from '../../../shared/clock.js';
import type { WebOptions } from '../kit/options.js';
import type { AttemptLimit } from '../kit/limits.js';
import { render } from '../kit/render.js';

const log = logger.child({ module: 'channel-links' });

/**
 * Takes one confirmation mail from the limits of each address, and of the client.
 * @throws AppError(429) when any is used up (nothing is then created or mailed).
 */
export async function allowConfirmations(req: Request, limit: AttemptLimit, addresses: string[]): Promise<void> {
  for (const address of addresses) {
    if (!(await limit(req, address))) throw new AppError(429, `too many confirmation mails to ${address} or from here: wait an hour, then try again`);
  }
}

/** Mails each address its confirmation after the answer; a failure is logged (the channel stays unconfirmed). */
export function mailInBackground(options: WebOptions, channel: Pick<ChannelDoc, '_id' | 'name'>, addresses: string[], now: Date): void {
  if (addresses.length === 0) return;
  const settings = { ...options, siteName: config.siteName };
  mailConfirmations(channel, addresses, settings, now).catch((err: unknown) => log.warn({ err: String(err), channelId: channel._id }, 'cannot mail a confirmation'));
}

/** `/integrations/confirm/<token>` (GET page, POST confirms) and the GET page of `/integrations/unsubscribe/<token>`. */
export function channelLinksRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/integrations/confirm/:token', async (req, res) => {
    const { channel, address } = await addressOfLink('confirm', String(req.params.token), options.secretKey, clock());
    if (!(channel.unconfirmed ?? []).includes(address)) throw new AppError(410, 'this address is confirmed already');
    const text = `Receive the alerts of the integration "${channel.name}" at ${address}?`;
    render(req, res, 'link-confirm', { title: 'Confirm alerts', heading: 'Confirm alerts to this address', text, action: req.originalUrl, button: 'Confirm' });
  });
  router.post('/integrations/confirm/:token', async (req, res) => {
    const channel = await confirmAddress(String(req.params.token), options.secretKey, clock());
    render(req, res, 'link-done', { title: 'Confirmed', heading: 'Confirmed', text: `Alerts of the integration "${channel.name}" now come to this address.` });
  });
  router.get('/integrations/unsubscribe/:token', async (req, res) => {
    const { channel, address } = await addressOfLink('unsubscribe', String(req.params.token), options.secretKey, clock());
    const text = `Stop the alerts of the integration "${channel.name}" to ${address}?`;
    render(req, res, 'link-confirm', { title: 'Unsubscribe', heading: 'Unsubscribe', text, action: req.originalUrl, button: 'Unsubscribe' });
  });
  return router;
}

/** The POST of `/integrations/unsubscribe/<token>`: outside the session and CSRF middleware (RFC 8058 one-click). */
export function unsubscribeRouter(options: WebOptions, clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.post('/integrations/unsubscribe/:token', async (req, res) => {
    const channel = await unsubscribeAddress(String(req.params.token), options.secretKey, clock());
    const text = channel.disabled ? `The integration "${channel.name}" is disabled: it sends no more alerts.` : `This address gets no more alerts from the integration "${channel.name}".`;
    render(req, res, 'link-done', { title: 'Unsubscribed', heading: 'Unsubscribed', text });
  });
  return router;
}
