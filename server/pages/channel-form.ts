/**
 * The integrations page's channel form (README, Web app): kind, name, settings as text (the kind's main setting or a
 * JSON object) and which flips alert (`both`, `down`, `up`). Settings are checked by the API's own rules
 * (server/services/channels.ts channelValueOf, the kind's Joi schema in shared/notify), errors shown beside the field.
 */
import type { Request } from 'express';
import { AppError } from '../../shared/errors.js';
import { CHANNEL_KINDS, parseChannelSettings } from '../../shared/notify/kinds.js';
import type { ChannelDoc } from '../../shared/models/channel.js';
import { MAX_CHANNEL_NAME } from '../schemas/channel.js';
import { VALIDATION_PREFIX } from '../schemas/parse.js';
import { assertChannelMembers, channelValueOf } from '../services/channels.js';
import { FieldError } from './check-form.js';
import { fieldOf } from './forms.js';

/** Which flips a channel alerts on. */
export const DIRECTIONS = ['both', 'down', 'up'] as const;
type Direction = (typeof DIRECTIONS)[number];

/** The form's fields as submitted or shown. */
export interface ChannelFormValues {
  kind: string;
  name: string;
  /** Empty on an edit: keep the stored settings (they are not shown back, they may hold secrets). */
  value: string;
  notify: string;
}

/** The form's fields for a new channel (`null`) or an existing one (settings left empty). */
export function channelValuesOf(channel: ChannelDoc | null): ChannelFormValues {
  if (!channel) return { kind: 'webhook', name: '', value: '', notify: 'both' };
  return { kind: channel.kind, name: channel.name, value: '', notify: directionOf(channel) };
}

/** The stored channel's direction; `both` when its value no longer parses. */
function directionOf(channel: ChannelDoc): Direction {
  try {
    const { up, down } = parseChannelSettings(channel.kind, channel.value);
    return up && !down ? 'up' : down && !up ? 'down' : 'both';
  } catch {
    return 'both';
  }
}

/** The submitted fields. */
export function submittedChannel(req: Request): ChannelFormValues {
  return { kind: fieldOf(req, 'kind'), name: fieldOf(req, 'name'), value: fieldOf(req, 'value'), notify: fieldOf(req, 'notify') };
}

/** An AppError's message without the API's `json validation error: ` prefix. */
function messageOf(err: AppError): string {
  return err.message.startsWith(VALIDATION_PREFIX) ? err.message.slice(VALIDATION_PREFIX.length) : err.message;
}

/**
 * The name and stored value the form asks for; `current` is the channel being edited (an empty `value` keeps its settings).
 * @throws FieldError on `kind`, `name`, `value` or `notify` with the API's message.
 */
export async function channelOfForm(projectId: string, values: ChannelFormValues, current: ChannelDoc | null): Promise<{ kind: string; name: string; value: string }> {
  if (!(CHANNEL_KINDS as readonly string[]).includes(values.kind)) throw new FieldError('kind', 'choose a kind');
  if (values.name.length > MAX_CHANNEL_NAME) throw new FieldError('name', `name is longer than ${MAX_CHANNEL_NAME} characters`);
  if (!(DIRECTIONS as readonly string[]).includes(values.notify)) throw new FieldError('notify', 'choose down, up or both');
  const keep = values.value.trim() === '' && current !== null && current.kind === values.kind;
  try {
    let value = channelValueOf(values.kind, keep ? current.value : values.value);
    const settings = parseChannelSettings(values.kind, value);
    const up = values.notify !== 'down';
    const down = values.notify !== 'up';
    if (settings.up !== up || settings.down !== down) value = channelValueOf(values.kind, { ...settings, up, down });
    await assertChannelMembers(projectId, values.kind, value, current?._id);
    return { kind: values.kind, name: values.name, value };
  } catch (err) {
    if (err instanceof AppError && err.status === 400) throw new FieldError('value', messageOf(err));
    throw err;
  }
}
