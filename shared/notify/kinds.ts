/**
 * Integration kinds and validation of their settings. The alerts work
 * (issue 3) extends this with per-kind settings.
 */
import { AppError } from '../errors.js';

/** Kinds a channel may have (behaviour.md §1.7 and the alerts issue). */
export const CHANNEL_KINDS = [
  'apprise', 'discord', 'email', 'gotify', 'matrix', 'mattermost', 'msteams', 'msteamsw', 'ntfy', 'opsgenie',
  'pd', 'pagerduty', 'po', 'pushover', 'signal', 'slack', 'sms', 'telegram', 'webhook', 'whatsapp',
] as const;

/**
 * Checks a channel's kind and value.
 *
 * @param kind - One of {@link CHANNEL_KINDS}.
 * @param value - The kind's main setting or a JSON document of settings.
 * @returns The value to store.
 * @throws AppError(400) naming what is wrong.
 */
export function validateChannelValue(kind: string, value: string): string {
  if (!(CHANNEL_KINDS as readonly string[]).includes(kind)) {
    throw new AppError(400, `unknown channel kind: ${kind}`);
  }
  if (value.trim() === '') throw new AppError(400, 'channel value is empty');
  return value;
}
