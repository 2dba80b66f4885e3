/**
 * A Healthchecks channel's `kind` and `value` as ours (the table in docs/migrating.md, "Channels"). Our kinds have the
 * same names; where that site keeps the settings in another shape (a JSON `value` with the address, an OAuth answer
 * holding the webhook URL, pipe-separated text), the value is rewritten, then validated as any new channel's is. A kind
 * we do not have, or a value that does not validate, is skipped with the reason, never stored half-made.
 */
import { CHANNEL_KINDS, validateChannelValue } from '../notify/kinds.js';

/** The outcome of mapping one channel. */
export type MappedChannel = { ok: true; kind: string; value: string } | { ok: false; reason: string };

type Settings = Record<string, unknown>;
/** Rewrites a parsed value (JSON object, or `{ text }` for plain text) into our settings, or null to keep the text. */
type Rewrite = (v: Settings) => Settings | null;

function parse(value: string): Settings {
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Settings;
    } catch {
      // Treated as plain text below.
    }
  }
  return { text };
}

/** Copies the listed keys that are present (`from → to`), plus `up`/`down`. */
function pick(v: Settings, keys: Record<string, string>): Settings {
  const out: Settings = {};
  for (const [from, to] of Object.entries({ ...keys, up: 'up', down: 'down' })) if (v[from] !== undefined && v[from] !== null) out[to] = v[from];
  return out;
}

/** `{"value": X, "up", "down"}` (email, phone numbers) → `{ <main>: X, up, down }`. */
const valueAs = (main: string): Rewrite => (v) => (v.value !== undefined ? pick(v, { value: main }) : null);
/** An OAuth answer holding `<holder>.url` (Slack, Discord) → `{ url }`. */
const webhookIn = (holder: string): Rewrite => (v) => {
  const inner = v[holder] as Settings | undefined;
  return typeof inner?.url === 'string' ? { url: inner.url } : null;
};

const REWRITES: Partial<Record<string, Rewrite>> = {
  email: valueAs('address'),
  sms: valueAs('number'),
  call: valueAs('number'),
  whatsapp: valueAs('number'),
  signal: valueAs('number'),
  slack: webhookIn('incoming_webhook'),
  mattermost: webhookIn('incoming_webhook'),
  discord: webhookIn('webhook'),
  telegram: (v) => (v.id !== undefined ? pick(v, { id: 'chat_id', thread_id: 'thread_id' }) : null),
  pd: (v) => (v.service_key !== undefined ? { routing_key: v.service_key } : null),
  opsgenie: (v) => (v.key !== undefined ? pick(v, { key: 'key', region: 'region' }) : null),
  po: (v) => {
    if (typeof v.text !== 'string' || !v.text.includes('|')) return null;
    const [userKey, priority, priorityUp] = v.text.split('|');
    return { user_key: userKey, ...(priority ? { priority: Number(priority) } : {}), ...(priorityUp ? { priority_up: Number(priorityUp) } : {}) };
  },
  ntfy: (v) => ({ ...pick(v, { topic: 'topic', url: 'url', priority: 'priority', priority_up: 'priority_up' }), ...(v.token ? { token: v.token } : {}) }),
  // Our gotify channel has no priorities: the server's default applies.
  gotify: (v) => pick(v, { url: 'url', token: 'token' }),
  trello: (v) => pick(v, { token: 'token', list_id: 'list_id', board_name: 'board_name', list_name: 'list_name' }),
  github: (v) => pick(v, { repo: 'repo', labels: 'labels' }),
};

/**
 * Maps one channel of a dump.
 * @returns Our kind and validated value, or why it is skipped.
 */
export function mapChannel(kind: string, value: string): MappedChannel {
  if (!(CHANNEL_KINDS as readonly string[]).includes(kind)) return { ok: false, reason: `kind "${kind}" has no counterpart here` };
  const rewritten = REWRITES[kind]?.(parse(value));
  const candidate = rewritten ? JSON.stringify(rewritten) : value;
  try {
    return { ok: true, kind, value: validateChannelValue(kind, candidate) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

/** Our kinds whose main setting that site keeps as `{"value": …}`, and the name of ours. */
const VALUE_KINDS: Record<string, string> = { email: 'address', sms: 'number', call: 'number', whatsapp: 'number', signal: 'number' };

/** Our channel value as that site stores it (the reverse of {@link mapChannel} for the kinds it keeps as `{"value": …}`). */
export function referenceValue(kind: string, value: string): string {
  const main = VALUE_KINDS[kind];
  const v = parse(value);
  if (!main || v[main] === undefined) return value;
  return JSON.stringify({ value: v[main], up: v.up ?? true, down: v.down ?? true });
}
