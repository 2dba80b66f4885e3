/**
 * Email channels' addresses (docs/web-app.md, Integrations): a new address gets a confirmation mail and no alert until its
 * owner opens it (shown "unconfirmed", as in the reference); every alert carries a one-click unsubscribe (RFC 8058)
 * that removes the address from the channel, or disables the channel when it was its only one.
 */
import { Channel, type ChannelDoc } from '../models/channel.js';
import { parseChannelSettings } from '../notify/kinds.js';
import type { EmailSettings } from '../notify/providers/email.js';
import { addressOfToken, addressToken, CONFIRM_TTL_MS, splitAddresses } from '../notify/address-links.js';
import { sendServiceMail, type MailRelay } from '../mail.js';
import { AppError } from '../errors.js';

/** What mailing a confirmation needs: the relay, the site's root (no trailing slash) and name, SECRET_KEY. */
export interface ConfirmationSettings extends MailRelay {
  baseUrl: string;
  siteName: string;
  secretKey: string;
}

/** The addresses of an email channel's value, lowercase; `[]` for another kind or a value that does not parse. */
export function emailAddressesOf(kind: string, value: string): string[] {
  if (kind !== 'email') return [];
  try {
    return splitAddresses((parseChannelSettings(kind, value) as unknown as EmailSettings).address);
  } catch {
    return [];
  }
}

/**
 * The unconfirmed addresses of a channel given `kind` and `value`: those it did not have before, and those still
 * unconfirmed then.
 * @param before - The channel before a change; null for a new one.
 */
export function unconfirmedAfter(before: Pick<ChannelDoc, 'kind' | 'value' | 'unconfirmed'> | null, kind: string, value: string): string[] {
  const had = before ? emailAddressesOf(before.kind, before.value) : [];
  const pending = before?.unconfirmed ?? [];
  return emailAddressesOf(kind, value).filter((address) => !had.includes(address) || pending.includes(address));
}

/**
 * Mails each address its confirmation link; one failure does not stop the others.
 * @throws the first relay error, after trying every address.
 */
export async function mailConfirmations(channel: Pick<ChannelDoc, '_id' | 'name'>, addresses: string[], settings: ConfirmationSettings, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + CONFIRM_TTL_MS);
  const results = await Promise.allSettled(
    addresses.map((to) => {
      const href = `${settings.baseUrl}/integrations/confirm/${addressToken('confirm', channel._id, to, settings.secretKey, expires)}`;
      const paragraphs = [
        `Someone added this address to the email integration "${channel.name}" on ${settings.siteName}, to receive alerts when checks go down or up.`,
        'No alert is sent here until you confirm. The link works for 7 days; if you do not want these alerts, ignore this mail.',
      ];
      return sendServiceMail(settings, { to, subject: `Confirm alerts to this address · ${settings.siteName}`, paragraphs, link: { href, label: 'Confirm this address' } });
    }),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The channel and address of a token, with the channel's addresses. @throws as `addressOfToken`; AppError(404) when the channel is gone. */
async function channelOfToken(purpose: 'confirm' | 'unsubscribe', token: string, secret: string, now: Date) {
  const { channelId, address } = addressOfToken(purpose, token, secret, now);
  const channel = await Channel.findById(channelId).lean<ChannelDoc>();
  if (!channel) throw new AppError(404, 'this integration has been deleted');
  return { channel, address, addresses: emailAddressesOf(channel.kind, channel.value) };
}

/**
 * The address a confirmation or unsubscribe token names, while it is on its channel; changes nothing.
 * @throws as `addressOfToken`; AppError(404) when the channel is gone; AppError(410) when the address is no longer on it.
 */
export async function addressOfLink(purpose: 'confirm' | 'unsubscribe', token: string, secret: string, now: Date): Promise<{ channel: ChannelDoc; address: string }> {
  const { channel, address, addresses } = await channelOfToken(purpose, token, secret, now);
  if (!addresses.includes(address)) throw new AppError(410, 'this address is no longer on this integration');
  return { channel, address };
}

/**
 * Confirms the token's address on its channel (one guarded write).
 * @throws as {@link addressOfLink}; AppError(410) when it is confirmed already.
 */
export async function confirmAddress(token: string, secret: string, now: Date): Promise<ChannelDoc> {
  const { channel, address } = await addressOfLink('confirm', token, secret, now);
  const updated = await Channel.findOneAndUpdate({ _id: channel._id, unconfirmed: address }, { $pull: { unconfirmed: address } }, { returnDocument: 'after' }).lean<ChannelDoc>();
  if (!updated) throw new AppError(410, 'this address is confirmed already');
  return updated;
}

/** The channel's value without `address` (its JSON settings kept). */
function valueWithout(channel: ChannelDoc, address: string): string {
  const rest = emailAddressesOf(channel.kind, channel.value).filter((other) => other !== address).join(',');
  if (!channel.value.trim().startsWith('{')) return rest;
  return JSON.stringify({ ...(JSON.parse(channel.value) as object), address: rest });
}

/**
 * Unsubscribes the token's address: removed from its channel, or the channel disabled when it was the only one. One
 * write guarded by the value read, so a concurrent edit is not lost.
 * @throws as {@link addressOfLink}; AppError(410) when already unsubscribed; AppError(409) when the channel changed meanwhile.
 */
export async function unsubscribeAddress(token: string, secret: string, now: Date): Promise<ChannelDoc> {
  const { channel, address } = await addressOfLink('unsubscribe', token, secret, now);
  const only = emailAddressesOf(channel.kind, channel.value).length === 1;
  if (only && channel.disabled) throw new AppError(410, 'this address gets no alerts from this integration already');
  // The only address: the channel is disabled and the address unconfirmed, so enabling the channel again mails it a
  // confirmation and sends it nothing before (shared/services/channels.ts newAddresses).
  const change = only ? { $set: { disabled: true }, $addToSet: { unconfirmed: address } } : { $set: { value: valueWithout(channel, address) }, $pull: { unconfirmed: address } };
  const updated = await Channel.findOneAndUpdate({ _id: channel._id, value: channel.value }, change, { returnDocument: 'after' }).lean<ChannelDoc>();
  if (!updated) throw new AppError(409, 'this integration changed meanwhile: open the link again');
  return updated;
}
