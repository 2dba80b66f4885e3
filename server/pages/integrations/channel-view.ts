/**
 * The channel form as views/integration-fields.eta draws it: the kind select's options and, for every kind, its
 * settings fields grouped under their legends. Every kind's fields are on the page; all but the chosen kind's are
 * hidden and disabled (so they are not sent), and static/app.js switches them when the kind changes.
 */
import type { ChannelDoc } from '../../../shared/models/channel.js';
import type { FieldError } from '../kit/forms.js';
import { fieldsOf, type ChannelFormValues } from './channel-form.js';
import { formKindOf, KIND_FORMS, type SettingField } from './channel-kinds.js';

/** One setting's field. */
export interface SettingView {
  field: SettingField;
  /** The input's id, `<kind>-<setting>` (a kind's fieldset is on the page beside the others). */
  id: string;
  /** The field's text; a password field is never filled in. */
  value: string;
  /** A group's members that are ticked. */
  chosen: string[];
  /** An edited channel has this secret stored: left empty, it is kept. */
  stored: boolean;
  /** Whether the "remove the stored value" box is ticked. */
  clear: boolean;
  /** The message shown under the field (id `<setting>-error`), or `''`. */
  error: string;
}

/** One kind's fieldset. */
export interface KindView {
  kind: string;
  label: string;
  /** The chosen kind: shown and enabled. */
  active: boolean;
  groups: Array<{ legend: string; settings: SettingView[] }>;
}

/** What the template needs besides the form's values. */
export interface ChannelFormView {
  kinds: Array<{ value: string; label: string }>;
  forms: KindView[];
  /** Channels a group may have as members: the project's other channels, groups excepted. */
  members: Array<{ id: string; label: string }>;
}

/** `<kind>` label, with the reference's name in brackets for an alias (`PagerDuty (pd)`). */
function labelOf(kind: string): string {
  const form = formKindOf(kind);
  if (!form) return kind;
  return form === kind ? KIND_FORMS[form].label : `${KIND_FORMS[form].label} (${kind})`;
}

/** The kinds offered: each kind once, and the edited channel's alias (`pd`, `po`, `msteamsw`) when it has one. */
function kindsOf(chosen: string): string[] {
  const kinds: string[] = Object.keys(KIND_FORMS);
  const form = formKindOf(chosen);
  if (form && form !== chosen) kinds.splice(kinds.indexOf(form) + 1, 0, chosen);
  return kinds;
}

/** A kind's fields grouped by legend, in their order. */
function groupsOf(kind: string, active: boolean, values: ChannelFormValues, error: FieldError | null): KindView['groups'] {
  const groups: KindView['groups'] = [];
  for (const field of fieldsOf(kind)) {
    const raw = active ? values.settings[field.name] : undefined;
    const setting: SettingView = {
      field,
      id: `${kind}-${field.name}`,
      value: typeof raw === 'string' && field.type !== 'password' ? raw : '',
      chosen: Array.isArray(raw) ? raw : [],
      stored: active && values.stored.includes(field.name),
      clear: active && values.clear.includes(field.name),
      error: active && error?.field === field.name ? error.message : '',
    };
    const legend = field.group ?? '';
    const last = groups.at(-1);
    if (last && last.legend === legend) last.settings.push(setting);
    else groups.push({ legend, settings: [setting] });
  }
  return groups;
}

/**
 * The form's view for `values` (the chosen kind's fields filled in, `error` under its field).
 * @param channels - The project's channels; `selfId` is the edited one (not a member of itself).
 */
export function channelFormView(values: ChannelFormValues, error: FieldError | null, channels: readonly ChannelDoc[], selfId?: string): ChannelFormView {
  const chosen = formKindOf(values.kind) ? values.kind : 'webhook';
  const kinds = kindsOf(chosen);
  return {
    kinds: kinds.map((kind) => ({ value: kind, label: labelOf(kind) })),
    forms: kinds.map((kind) => ({ kind, label: labelOf(kind), active: kind === chosen, groups: groupsOf(kind, kind === chosen, values, error) })),
    members: channels
      .filter((channel) => channel.kind !== 'group' && channel._id !== selfId)
      .map((channel) => ({ id: channel._id, label: `${channel.name || channel.kind} (${labelOf(channel.kind)})` })),
  };
}
