/** Integration JSON (docs/api-reference.md, "Integration object"), and the settings form of the `integrations/` extension, secrets masked. */
import type { ChannelDoc } from '../../shared/models/channel.js';
import { parseChannelSettings } from '../../shared/notify/kinds.js';
import { isoSeconds } from './time.js';

/** A channel as `GET channels/` lists it. */
export interface ChannelJson {
  id: string;
  name: string;
  kind: string;
}

/** `{id, name, kind}` of a channel. */
export function presentChannel(channel: Pick<ChannelDoc, '_id' | 'name' | 'kind'>): ChannelJson {
  return { id: channel._id, name: channel.name, kind: channel.kind };
}

/** A channel with its settings (masked), state and last delivery. */
export interface ChannelSettingsJson extends ChannelJson {
  /** The kind's settings with defaults, secrets masked; null when the stored value no longer parses. */
  settings: Record<string, unknown> | null;
  /** Set by a permanent delivery error, or through the API; a disabled channel sends nothing. */
  disabled: boolean;
  /** An email channel's addresses not confirmed by their owner yet (no alert goes to them). */
  unconfirmed: string[];
  /** The last delivery's error; `""` after a success or before any. */
  last_error: string;
  last_notify: string | null;
}

/** Settings whose name says they are credentials (an ntfy topic is one: whoever knows it reads and posts). */
const SECRET_NAME_RE = /token|password|secret|key|auth|topic/i;
/** Schemes whose host is a host; in others (apprise's `tgram://<bot token>/…`, `discord://<id>/<token>`) it may be a credential. */
const HOST_SCHEMES = new Set(['http:', 'https:', 'smtp:', 'smtps:']);
/** A URL with a scheme (`https://…`, `smtp://…`, apprise's `tgram://…`). */
const URL_RE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `…` and, for a long secret, its last 4 characters (to tell two apart). */
function maskText(text: string): string {
  return text === '' ? '' : `…${text.length >= 16 ? text.slice(-4) : ''}`;
}

/** Scheme and host only (scheme only for other than {@link HOST_SCHEMES}): credentials, path and query (chat webhooks' secret) become `…`. */
function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!HOST_SCHEMES.has(parsed.protocol)) return `${parsed.protocol}//…`;
    const rest = parsed.pathname.replace(/^\/$/, '') + parsed.search;
    return `${parsed.protocol}//${parsed.host}${rest ? '/…' : ''}`;
  } catch {
    return `${url.slice(0, url.indexOf('://'))}://…`;
  }
}

/** A setting's value with secrets masked: named credentials, URLs, and every header value. */
function masked(name: string, value: unknown): unknown {
  if (typeof value === 'string') return SECRET_NAME_RE.test(name) ? maskText(value) : URL_RE.test(value) ? maskUrl(value) : value;
  if (Array.isArray(value)) return value.map((item) => masked(name, item));
  if (value === null || typeof value !== 'object') return value;
  const headers = name.startsWith('headers');
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, headers ? maskText(String(item)) : masked(key, item)]));
}

/** The settings form of a channel, as `integrations/` answers it. */
export function presentChannelSettings(channel: ChannelDoc): ChannelSettingsJson {
  let settings: Record<string, unknown> | null;
  try {
    settings = masked('', parseChannelSettings(channel.kind, channel.value)) as Record<string, unknown>;
  } catch {
    settings = null;
  }
  return {
    ...presentChannel(channel),
    settings,
    disabled: channel.disabled ?? false,
    unconfirmed: channel.unconfirmed ?? [],
    last_error: channel.lastError ?? '',
    last_notify: isoSeconds(channel.lastNotify ?? null),
  };
}
