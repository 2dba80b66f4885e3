/**
 * The integrations page's channel form (docs/web-app.md): kind, name, the kind's settings as fields
 * (server/pages/integrations/channel-kinds.ts) and which flips alert (`both`, `down`, `up`). The fields are assembled into the
 * settings object the API takes and checked by the API's own code (server/services/channel-input.ts channelValueOf, the
 * kind's Joi schema in shared/notify), so the page shows the API's message under the setting's field.
 */
import type { Request } from 'express';
import { AppError } from '../../../shared/errors.js';
import { CHANNEL_KINDS, ChannelValueError, parseChannelSettings } from '../../../shared/notify/kinds.js';
import type { ChannelDoc } from '../../../shared/models/channel.js';
import { MAX_CHANNEL_NAME } from '../../schemas/channel.js';
import { VALIDATION_PREFIX } from '../../schemas/parse.js';
import { assertChannelMembers, channelValueOf } from '../../services/channel-input.js';
import { FieldError, fieldOf, listOf } from '../kit/forms.js';
import { formKindOf, KIND_FORMS, type SettingField } from './channel-kinds.js';

/** Which flips a channel alerts on. */
export const DIRECTIONS = ['both', 'down', 'up'] as const;
type Direction = (typeof DIRECTIONS)[number];

/** The form's fields as submitted or shown. */
export interface ChannelFormValues {
  kind: string;
  name: string;
  notify: string;
  /** The kind's settings fields by setting name: text, or a group's member UUIDs. */
  settings: Record<string, string | string[]>;
  /** Secret settings the edited channel has stored: their empty fields keep them. */
  stored: string[];
  /** Optional secret settings whose "remove" box is ticked. */
  clear: string[];
}

/** The fields of a kind (its alias's for `pd`, `po`, `msteamsw`); none for an unknown kind. */
export function fieldsOf(kind: string): readonly SettingField[] {
  const form = formKindOf(kind);
  return form ? KIND_FORMS[form].fields : [];
}

/** The stored channel's settings with defaults; empty when its value no longer parses. */
function storedSettings(channel: ChannelDoc): Record<string, unknown> {
  try {
    return parseChannelSettings(channel.kind, channel.value) as unknown as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The secret settings of `kind` that `channel` (when of that kind) has stored. */
function storedSecrets(kind: string, channel: ChannelDoc | null): string[] {
  if (!channel || channel.kind !== kind) return [];
  const settings = storedSettings(channel);
  return fieldsOf(kind).filter((field) => field.secret && settings[field.name] !== undefined && settings[field.name] !== '').map((field) => field.name);
}

/** A stored setting as its field shows it: text, a list joined with commas, a group's members as a list. */
function shown(field: SettingField, value: unknown): string | string[] | undefined {
  if (field.type === 'channels') return Array.isArray(value) ? value.map(String) : undefined;
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The form's fields for a new channel (`null`) or an existing one (non-secret settings filled in, secrets left empty). */
export function channelValuesOf(channel: ChannelDoc | null): ChannelFormValues {
  if (!channel) return { kind: 'webhook', name: '', notify: 'both', settings: {}, stored: [], clear: [] };
  const stored = storedSettings(channel);
  const settings: Record<string, string | string[]> = {};
  for (const field of fieldsOf(channel.kind)) {
    const value = field.secret ? undefined : shown(field, stored[field.name]);
    if (value !== undefined) settings[field.name] = value;
  }
  return { kind: channel.kind, name: channel.name, notify: directionOf(stored), settings, stored: storedSecrets(channel.kind, channel), clear: [] };
}

/** The stored channel's direction; `both` when its value no longer parses. */
function directionOf({ up, down }: Record<string, unknown>): Direction {
  return up === true && down === false ? 'up' : down === true && up === false ? 'down' : 'both';
}

/** The submitted fields; `current` is the channel being edited. */
export function submittedChannel(req: Request, current: ChannelDoc | null): ChannelFormValues {
  const kind = fieldOf(req, 'kind');
  const settings: Record<string, string | string[]> = {};
  for (const field of fieldsOf(kind)) settings[field.name] = field.type === 'channels' ? listOf(req, field.name) : fieldOf(req, field.name);
  return { kind, name: fieldOf(req, 'name'), notify: fieldOf(req, 'notify'), settings, stored: storedSecrets(kind, current), clear: listOf(req, 'clear') };
}

/**
 * Whether the form asks for another kind's fields rather than to save: its "Choose" button, or (without the page's
 * script) a kind other than the one whose fields were shown.
 */
export function choosingKind(req: Request): boolean {
  const shown = fieldOf(req, 'fields_kind');
  const kind = fieldOf(req, 'kind');
  return fieldOf(req, 'choose') !== '' || (shown !== '' && shown !== kind && formKindOf(kind) !== undefined);
}

/** A header field's lines `Name: value` as an object. @throws FieldError on the field for a line without a colon. */
function headersOf(field: SettingField, text: string): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new FieldError(field.name, `line ${i + 1}: write a header as Name: value`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** A number when the text reads as one; otherwise the text, for the kind's schema to refuse. */
function numberOf(text: string): number | string {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

/** A field's setting as the kind's schema takes it; undefined (left out) when empty. */
function settingOf(field: SettingField, raw: string | string[]): unknown {
  if (Array.isArray(raw)) return raw.length > 0 ? raw : undefined;
  if (field.type === 'headers') return headersOf(field, raw);
  if (field.type === 'textarea') return raw === '' ? undefined : raw;
  const text = raw.trim();
  if (text === '') return undefined;
  if (field.type === 'list') return text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return field.type === 'number' || field.numeric ? numberOf(text) : text;
}

/** An AppError's message without the API's `json validation error: ` prefix. */
function messageOf(err: AppError): string {
  return err.message.startsWith(VALIDATION_PREFIX) ? err.message.slice(VALIDATION_PREFIX.length) : err.message;
}

/** Whether a secret field is left empty to keep its stored value. */
function keeps(field: SettingField, values: ChannelFormValues): boolean {
  const raw = values.settings[field.name] ?? '';
  return Boolean(field.secret) && (raw === '' || (Array.isArray(raw) && raw.length === 0)) && !values.clear.includes(field.name);
}

/**
 * The settings object of the form (the API's `value` as an object): each non-empty field, an empty secret field's
 * stored value (same kind, not removed), and `up: false` or `down: false` when the channel alerts one way only.
 * A stored secret is kept only while every destination field (a URL, a server) stays as stored: a secret the page
 * never shows back must not follow the alerts to a host a member has just typed (docs/security.md).
 * @throws FieldError on a header field whose line is not `Name: value`, or on a kept secret whose destination changed.
 */
export function settingsOfForm(values: ChannelFormValues, current: ChannelDoc | null): Record<string, unknown> {
  const kept = current && current.kind === values.kind ? storedSettings(current) : {};
  const settings: Record<string, unknown> = {};
  for (const field of fieldsOf(values.kind)) {
    const value = keeps(field, values) && kept[field.name] !== undefined ? kept[field.name] : settingOf(field, values.settings[field.name] ?? '');
    if (value !== undefined) settings[field.name] = value;
  }
  const fields = fieldsOf(values.kind);
  if (fields.some((field) => field.destination && settings[field.name] !== kept[field.name])) {
    const reused = fields.find((field) => !field.destination && keeps(field, values) && kept[field.name] !== undefined);
    if (reused) throw new FieldError(reused.name, 'the server or URL changed: enter this again');
  }
  if (values.notify === 'down') settings.up = false;
  if (values.notify === 'up') settings.down = false;
  return settings;
}

/**
 * The name and stored value the form asks for; `current` is the channel being edited.
 * @throws FieldError on `kind`, `name`, `notify` or the setting at fault, with the API's message.
 */
export async function channelOfForm(projectId: string, values: ChannelFormValues, current: ChannelDoc | null): Promise<{ kind: string; name: string; value: string }> {
  if (!(CHANNEL_KINDS as readonly string[]).includes(values.kind)) throw new FieldError('kind', 'choose a kind');
  if (values.name.length > MAX_CHANNEL_NAME) throw new FieldError('name', `name is longer than ${MAX_CHANNEL_NAME} characters`);
  if (!(DIRECTIONS as readonly string[]).includes(values.notify)) throw new FieldError('notify', 'choose down, up or both');
  const fields = fieldsOf(values.kind).map((field) => field.name);
  let value: string;
  try {
    value = channelValueOf(values.kind, settingsOfForm(values, current));
  } catch (err) {
    if (!(err instanceof ChannelValueError)) throw err;
    // An error of no one field (shell commands not enabled) goes under the kind.
    throw new FieldError(err.setting !== undefined && fields.includes(err.setting) ? err.setting : 'kind', messageOf(err));
  }
  try {
    await assertChannelMembers(projectId, values.kind, value, current?._id);
  } catch (err) {
    if (err instanceof AppError && err.status === 400) throw new FieldError(fields[0] ?? 'kind', messageOf(err));
    throw err;
  }
  return { kind: values.kind, name: values.name, value };
}
