/**
 * The create/update payload of `integrations/` (docs/api.md, "Notes"; an extension: the reference's v3 API only lists channels). Absent means
 * "leave unchanged"; `kind` and `value` are required to create. `value` is the kind's main setting as text, or its settings as a JSON object.
 */
import Joi from 'joi';

/** Longest channel name, characters. */
export const MAX_CHANNEL_NAME = 100;

/** A validated channel payload, in the API's field names. */
export interface ChannelInput {
  kind?: string;
  name?: string;
  value?: string | Record<string, unknown>;
  /** false re-enables a channel a permanent delivery error disabled. */
  disabled?: boolean;
}

/** Update: every field optional. */
export const channelSchema = Joi.object<ChannelInput>({
  kind: Joi.string().allow(''),
  name: Joi.string().max(MAX_CHANNEL_NAME).allow(''),
  // An empty string is the kind's problem (`channel value is empty`), not the payload's.
  value: Joi.alternatives(Joi.string().allow(''), Joi.object()),
  disabled: Joi.boolean(),
});

/** Create: `kind` and `value` required. */
export const newChannelSchema = channelSchema.fork(['kind', 'value'], (field) => field.required());
