/**
 * What the integrations page asks for each channel kind (issue 21 item 1): the kind's settings (shared/notify/providers/,
 * README "Channel values") as labelled fields with a one-line instruction. Every kind fits in fields, so the page has
 * no JSON text area; `hc-admin` and `POST /api/v3/integrations/` still take any value.
 */
import type { ChannelKind } from '../../shared/notify/kinds.js';

/** How a field is shown and read back (README, Web app). */
export type SettingType =
  /** One line of text; `url` and `password` are its browser variants. */
  | 'text' | 'url' | 'password'
  /** A whole number (stored as a number when it reads as one; otherwise the kind's schema says what is wrong). */
  | 'number'
  /** One of `options`. */
  | 'select'
  /** Several lines of text. */
  | 'textarea'
  /** Lines `Name: value`, stored as an object (a webhook's headers). */
  | 'headers'
  /** Comma-separated, stored as a list of strings. */
  | 'list'
  /** Checkboxes of the project's other (non-group) channels, stored as a list of their UUIDs. */
  | 'channels';

/** One setting of a kind as a form field. */
export interface SettingField {
  /** The setting's key in the kind's settings, also the form field's name (never `kind`, `name`, `notify`). */
  name: string;
  label: string;
  type: SettingType;
  required?: boolean;
  /** The one-line instruction under the field. */
  hint: string;
  /** A credential, or a URL whose path is one: never shown back; on an edit, empty keeps the stored value. */
  secret?: boolean;
  /** A select's choices, `[value, label]`; the value `''` leaves the setting out (the kind's default). */
  options?: ReadonlyArray<readonly [string, string]>;
  /** A select whose values are stored as numbers. */
  numeric?: boolean;
  /** Fields with the same group are shown together under it as a legend. */
  group?: string;
}

/** A kind as the kind select offers it. */
export interface KindForm {
  label: string;
  fields: readonly SettingField[];
}

const hookUrl = (hint: string): SettingField => ({ name: 'url', label: 'Webhook URL', type: 'url', required: true, secret: true, hint });
const twilio = (hint: string): SettingField[] => [
  { name: 'number', label: 'Phone number', type: 'text', required: true, hint },
  { name: 'from', label: 'Sender number', type: 'text', hint: 'E.164; empty: the server’s TWILIO_FROM.' },
  { name: 'account', label: 'Twilio account SID', type: 'text', hint: 'Empty: the server’s TWILIO_ACCOUNT.' },
  { name: 'auth', label: 'Twilio auth token', type: 'password', secret: true, hint: 'Empty: the server’s TWILIO_AUTH.' },
];
const METHODS = [['', 'POST with a body, else GET'], ['GET', 'GET'], ['POST', 'POST'], ['PUT', 'PUT'], ['PATCH', 'PATCH'], ['DELETE', 'DELETE']] as const;
/** One direction of a webhook's templates (`down`, `up`, `late`). */
const direction = (suffix: string, group: string): SettingField[] => [
  { name: `url_${suffix}`, label: 'URL', type: 'url', secret: true, group, hint: 'May use $NAME, $STATUS, $CODE…; empty: nothing is sent.' },
  { name: `method_${suffix}`, label: 'Method', type: 'select', options: METHODS, group, hint: 'The HTTP method.' },
  { name: `headers_${suffix}`, label: 'Headers', type: 'headers', secret: true, group, hint: 'One per line, as Name: value.' },
  { name: `body_${suffix}`, label: 'Body', type: 'textarea', group, hint: 'May use $JSON, $NAME_JSON…' },
];
const priorities = (from: number, to: number, fallback: string): Array<[string, string]> => [
  ['', `Default (${fallback})`],
  ...Array.from({ length: to - from + 1 }, (_, i): [string, string] => [String(from + i), String(from + i)]),
];

/** Each kind's fields, in the kind select's order; aliases (`msteamsw`, `pd`, `po`) use their kind's. */
export const KIND_FORMS: Readonly<Record<Exclude<ChannelKind, 'msteamsw' | 'pd' | 'po'>, KindForm>> = {
  webhook: {
    label: 'Webhook',
    fields: [
      { name: 'url', label: 'Simple URL', type: 'url', secret: true, hint: 'POSTs the alert as JSON here. Or leave it empty and fill in the templates below.' },
      ...direction('down', 'When a check goes down'),
      ...direction('up', 'When a check comes back up'),
      ...direction('late', 'When a check is late (an alerting rule; empty: the down template)'),
    ],
  },
  email: { label: 'Email', fields: [{ name: 'address', label: 'Address', type: 'text', required: true, hint: 'One address, or several separated by commas.' }] },
  slack: { label: 'Slack', fields: [hookUrl('The incoming webhook URL, https://hooks.slack.com/services/….')] },
  discord: { label: 'Discord', fields: [hookUrl('The channel’s webhook URL, https://discord.com/api/webhooks/….')] },
  mattermost: { label: 'Mattermost', fields: [hookUrl('The incoming webhook URL, https://mattermost.example.org/hooks/….')] },
  msteams: { label: 'Microsoft Teams', fields: [hookUrl('The Teams workflow’s webhook URL.')] },
  googlechat: { label: 'Google Chat', fields: [hookUrl('The space’s webhook URL, https://chat.googleapis.com/v1/spaces/….')] },
  rocketchat: { label: 'Rocket.Chat', fields: [hookUrl('The incoming webhook URL, https://chat.example.org/hooks/….')] },
  zulip: {
    label: 'Zulip',
    fields: [
      { name: 'bot_email', label: 'Bot email', type: 'text', required: true, hint: 'The bot’s address, from Zulip’s Personal settings › Bots.' },
      { name: 'api_key', label: 'Bot API key', type: 'password', required: true, secret: true, hint: 'The bot’s API key.' },
      { name: 'site', label: 'Zulip site', type: 'url', hint: 'Empty: https:// and the bot email’s domain.' },
      { name: 'mtype', label: 'Send to', type: 'select', required: true, options: [['stream', 'A stream'], ['private', 'A person (direct message)']], hint: 'A stream topic or a direct message.' },
      { name: 'to', label: 'Stream or recipient', type: 'text', required: true, hint: 'The stream’s name, or the person’s address or user id.' },
      { name: 'topic', label: 'Topic', type: 'text', hint: 'Empty: “<check> is DOWN” or “UP”.' },
    ],
  },
  telegram: {
    label: 'Telegram',
    fields: [
      { name: 'chat_id', label: 'Chat id', type: 'text', required: true, hint: 'The numeric chat id (groups start with -), or @channelname.' },
      { name: 'token', label: 'Bot token', type: 'password', secret: true, hint: 'Empty: the server’s TELEGRAM_TOKEN.' },
      { name: 'thread_id', label: 'Topic (thread) id', type: 'number', hint: 'For a forum group’s topic; empty: the main chat.' },
    ],
  },
  matrix: {
    label: 'Matrix',
    fields: [
      { name: 'room_id', label: 'Room id', type: 'text', required: true, hint: 'As !abc123:example.org (the room’s settings › Advanced).' },
      { name: 'homeserver', label: 'Homeserver', type: 'url', hint: 'Empty: the server’s MATRIX_HOMESERVER.' },
      { name: 'access_token', label: 'Access token', type: 'password', secret: true, hint: 'Empty: the server’s MATRIX_ACCESS_TOKEN.' },
    ],
  },
  ntfy: {
    label: 'ntfy',
    fields: [
      { name: 'topic', label: 'Topic', type: 'password', required: true, secret: true, hint: 'Letters, digits, - and _; whoever knows it reads the alerts.' },
      { name: 'url', label: 'Server', type: 'url', hint: 'Empty: the server’s NTFY_URL (https://ntfy.sh).' },
      { name: 'priority', label: 'Priority when down', type: 'select', numeric: true, options: priorities(1, 5, '5, max'), hint: '1 (min) to 5 (max).' },
      { name: 'priority_up', label: 'Priority when up', type: 'select', numeric: true, options: priorities(1, 5, '3'), hint: '1 (min) to 5 (max).' },
      { name: 'token', label: 'Access token', type: 'password', secret: true, hint: 'For a protected topic; empty: none.' },
    ],
  },
  gotify: {
    label: 'Gotify',
    fields: [
      { name: 'url', label: 'Server', type: 'url', required: true, hint: 'The Gotify server’s address, https://gotify.example.org.' },
      { name: 'token', label: 'Application token', type: 'password', required: true, secret: true, hint: 'From Gotify’s Apps tab.' },
    ],
  },
  pushover: {
    label: 'Pushover',
    fields: [
      { name: 'user_key', label: 'User key', type: 'password', required: true, secret: true, hint: 'Your user (or group) key: 30 letters and digits.' },
      { name: 'token', label: 'Application token', type: 'password', secret: true, hint: 'Empty: the server’s PUSHOVER_API_TOKEN.' },
      { name: 'priority', label: 'Priority when down', type: 'select', numeric: true, options: priorities(-2, 2, '0'), hint: '-2 (lowest) to 2 (emergency: repeats until acknowledged).' },
      { name: 'priority_up', label: 'Priority when up', type: 'select', numeric: true, options: priorities(-2, 2, '0'), hint: '-2 (lowest) to 2 (emergency).' },
    ],
  },
  pushbullet: { label: 'Pushbullet', fields: [{ name: 'token', label: 'Access token', type: 'password', required: true, secret: true, hint: 'From Pushbullet’s Settings › Account.' }] },
  pagerduty: { label: 'PagerDuty', fields: [{ name: 'routing_key', label: 'Integration (routing) key', type: 'password', required: true, secret: true, hint: 'The Events API v2 integration key: 32 letters and digits.' }] },
  opsgenie: {
    label: 'Opsgenie',
    fields: [
      { name: 'key', label: 'API key', type: 'password', required: true, secret: true, hint: 'The API integration’s key.' },
      { name: 'region', label: 'Region', type: 'select', options: [['', 'US (default)'], ['us', 'US'], ['eu', 'EU']], hint: 'Where your Opsgenie account lives.' },
    ],
  },
  pagertree: { label: 'PagerTree', fields: [hookUrl('The integration’s webhook URL, https://api.pagertree.com/integration/….')] },
  spike: { label: 'Spike.sh', fields: [hookUrl('The integration URL, https://hooks.spike.sh/…/push-events.')] },
  victorops: { label: 'Splunk On-Call (VictorOps)', fields: [hookUrl('The REST integration URL, https://alert.victorops.com/integrations/generic/….')] },
  sms: { label: 'SMS (Twilio)', fields: twilio('The recipient in E.164 format, +15551234567.') },
  whatsapp: { label: 'WhatsApp (Twilio)', fields: twilio('The recipient in E.164 format, +15551234567.') },
  signal: { label: 'Signal (Twilio)', fields: twilio('The recipient in E.164 format, +15551234567.') },
  call: { label: 'Phone call (Twilio, down only)', fields: twilio('The number to call in E.164 format, +15551234567.') },
  trello: {
    label: 'Trello (down only)',
    fields: [
      { name: 'token', label: 'Token', type: 'password', required: true, secret: true, hint: 'A member token that may write to the board.' },
      { name: 'list_id', label: 'List id', type: 'text', required: true, hint: 'The list the cards go to: 16 to 32 hex digits.' },
      { name: 'key', label: 'Application key', type: 'password', secret: true, hint: 'Empty: the server’s TRELLO_APP_KEY.' },
      { name: 'board_name', label: 'Board name', type: 'text', hint: 'Shown only, to tell channels apart.' },
      { name: 'list_name', label: 'List name', type: 'text', hint: 'Shown only.' },
    ],
  },
  github: {
    label: 'GitHub issue (down only)',
    fields: [
      { name: 'repo', label: 'Repository', type: 'text', required: true, hint: 'As owner/name.' },
      { name: 'token', label: 'Token', type: 'password', required: true, secret: true, hint: 'A token that may create issues in the repository.' },
      { name: 'labels', label: 'Labels', type: 'list', hint: 'Separated by commas; empty: none.' },
    ],
  },
  apprise: {
    label: 'Apprise',
    fields: [
      { name: 'url', label: 'Apprise API notify URL', type: 'url', required: true, secret: true, hint: 'The Apprise API’s notify endpoint, http://apprise:8000/notify/….' },
      { name: 'urls', label: 'Apprise URLs', type: 'password', secret: true, hint: 'Services to notify, as Apprise URLs; empty: the endpoint’s stored ones.' },
      { name: 'tag', label: 'Tag', type: 'text', hint: 'Notify only the stored services with this tag.' },
    ],
  },
  group: { label: 'Group of integrations', fields: [{ name: 'channels', label: 'Members', type: 'channels', required: true, hint: 'The integrations this one alerts through (groups cannot be members).' }] },
  shell: {
    label: 'Shell command',
    fields: [
      { name: 'cmd_down', label: 'Command when down', type: 'text', hint: 'Runs on the worker with $NAME, $STATUS, $CODE… set; empty: nothing.' },
      { name: 'cmd_up', label: 'Command when up', type: 'text', hint: 'Empty: nothing.' },
    ],
  },
};

/** The reference's names of three kinds. */
const ALIASES: Readonly<Record<string, keyof typeof KIND_FORMS | undefined>> = { msteamsw: 'msteams', pd: 'pagerduty', po: 'pushover' };

/** The kind whose form `kind` uses (an alias's: `msteamsw` → `msteams`, `pd` → `pagerduty`, `po` → `pushover`); undefined for no kind. */
export function formKindOf(kind: string): keyof typeof KIND_FORMS | undefined {
  const form: string = (Object.hasOwn(ALIASES, kind) ? ALIASES[kind] : undefined) ?? kind;
  return Object.hasOwn(KIND_FORMS, form) ? (form as keyof typeof KIND_FORMS) : undefined;
}
