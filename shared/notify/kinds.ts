/**
 * Integration kinds and their settings (docs/api-reference.md, "Integration object"): a channel's value is the main setting as plain text or a
 * JSON object; every kind also takes `up`/`down` booleans (default true, docs/alerts.md, "Who gets alerted").
 */
import Joi from 'joi';
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors.js';
import { apprise } from './providers/apprise.js';
import { discord, mattermost, msteams, slack } from './providers/chat.js';
import { email } from './providers/email.js';
import { group } from './providers/group.js';
import { opsgenie, pagerduty, pagertree } from './providers/incident.js';
import { matrix, telegram } from './providers/messaging.js';
import { spike, victorops } from './providers/oncall.js';
import { gotify, ntfy, pushbullet, pushover } from './providers/push.js';
import { shell } from './providers/shell.js';
import { googlechat, rocketchat, zulip } from './providers/teamchat.js';
import { github, trello } from './providers/tracker.js';
import { call, signal, sms, whatsapp } from './providers/twilio.js';
import { webhook } from './providers/webhook.js';
import type { AlertStatus, Provider } from './types.js';

/** Kinds a channel may have; `msteamsw`, `pd` and `po` are the reference's names of `msteams`, `pagerduty` and `pushover`. */
export const CHANNEL_KINDS = [
  'apprise', 'call', 'discord', 'email', 'github', 'googlechat', 'gotify', 'group', 'matrix', 'mattermost', 'msteams',
  'msteamsw', 'ntfy', 'opsgenie', 'pd', 'pagerduty', 'pagertree', 'po', 'pushbullet', 'pushover', 'rocketchat', 'shell',
  'signal', 'slack', 'sms', 'spike', 'telegram', 'trello', 'victorops', 'webhook', 'whatsapp', 'zulip',
] as const;

/** One of {@link CHANNEL_KINDS}. */
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

const PROVIDERS: Record<ChannelKind, Provider<object>> = {
  apprise, call, discord, email, github, googlechat, gotify, group, matrix, mattermost, msteams, msteamsw: msteams, ntfy,
  opsgenie, pd: pagerduty, pagerduty, pagertree, po: pushover, pushbullet, pushover, rocketchat, shell, signal, slack, sms,
  spike, telegram, trello, victorops, webhook, whatsapp, zulip,
};

/** Settings every kind takes. */
export interface CommonSettings {
  up: boolean;
  down: boolean;
}

const common = { up: Joi.boolean().default(true), down: Joi.boolean().default(true) };

/**
 * A channel value that its kind's schema refuses, naming the setting at fault when there is one (the web form shows
 * the message under that setting's field). An AppError(400), so the API answers it as before.
 */
export class ChannelValueError extends AppError {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(400, message);
    this.name = 'ChannelValueError';
  }
}

function isKind(kind: string): kind is ChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(kind);
}

/** The provider of a kind. @throws AppError(400) `unknown channel kind: <kind>`. */
export function providerOf(kind: string): Provider<object> {
  if (!isKind(kind)) throw new AppError(400, `unknown channel kind: ${kind}`);
  return PROVIDERS[kind];
}

function rawSettings(provider: Provider<object>, value: string): Record<string, unknown> {
  const text = value.trim();
  if (!text.startsWith('{')) return provider.fromPlain?.(text) ?? { [provider.main]: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below as not valid JSON.
  }
  throw new AppError(400, 'channel value is not a valid JSON object');
}

/**
 * A channel's validated settings, defaults filled in (frozen; the same object for the same kind and value).
 * @throws ChannelValueError naming the first problem, e.g. `invalid channel value: "url" must be a valid uri`;
 *   AppError(400) for an unknown kind, an empty value or text that is not a JSON object.
 */
export function parseChannelSettings(kind: string, value: string): object & CommonSettings {
  const key = `${kind}\n${value}`;
  const known = parsedSettings.get(key);
  if (known) return known;
  const settings = Object.freeze(validateSettings(kind, value));
  parsedSettings.set(key, settings);
  return settings;
}

/** Valid settings by kind and value: otherwise each alert of a mass down validates its channel again (docs/notes.md). */
const parsedSettings = new LRUCache<string, object & CommonSettings>({ max: 10_000 });

function validateSettings(kind: string, value: string): object & CommonSettings {
  const provider = providerOf(kind);
  if (value.trim() === '') throw new AppError(400, 'channel value is empty');
  const result = provider.schema.keys(common).validate(rawSettings(provider, value), { convert: false });
  if (result.error) {
    // A missing one of several (a webhook's `url`, `url_down`, `url_up`) has no path: its first peer is at fault.
    const detail = result.error.details[0];
    const peers = detail?.context?.peers as unknown[] | undefined;
    const setting = detail?.path[0] ?? peers?.[0];
    throw new ChannelValueError(`invalid channel value: ${result.error.message}`, typeof setting === 'string' ? setting : undefined);
  }
  return result.value as object & CommonSettings;
}

/**
 * Checks a new channel's kind and value; returns the value to store (trimmed, or the JSON re-serialised compactly).
 * @throws AppError(400) naming what is wrong.
 */
export function validateChannelValue(kind: string, value: string): string {
  parseChannelSettings(kind, value);
  const text = value.trim();
  return text.startsWith('{') ? JSON.stringify(JSON.parse(text)) : text;
}

/**
 * Whether a channel alerts on a flip into `status` (docs/alerts.md, "Who gets alerted"); a value that no longer parses does, so
 * that the delivery records the error.
 */
export function channelSendsOn(kind: string, value: string, status: AlertStatus): boolean {
  let settings: object & CommonSettings;
  try {
    settings = parseChannelSettings(kind, value);
  } catch {
    return true;
  }
  if (!settings[status]) return false;
  return providerOf(kind).sendsOn?.(settings, status) ?? true;
}
