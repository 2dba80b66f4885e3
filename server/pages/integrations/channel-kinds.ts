/**
 * What the integrations page asks for each channel kind (docs/web-app.md, "Integrations"): the kind's settings (shared/notify/providers/,
 * docs/alerts.md, "Channel values") as labelled fields with a one-line instruction. Every kind fits in fields, so the page has
 * no JSON text area; `hc-admin` and `POST /api/v3/integrations/` still take any value.
 */
import type { ChannelKind } from '../../../shared/notify/kinds.js';

/** How a field is shown and read back (docs/web-app.md). */
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
  /** Says where alerts go (a URL, a server; every `url` field): when it changes, stored secrets must be entered again. */
  destination?: boolean;
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

/** A field's parts besides its name, label, type and instruction. */
type Extra = Omit<Partial<SettingField>, 'name' | 'label' | 'type' | 'hint'>;
/** The setting must be given. */
const REQUIRED = { required: true } as const;

/** A one-line text field. */
const text = (name: string, label: string, hint: string, extra: Extra = {}): SettingField => ({ name, label, type: 'text', hint, ...extra });
/** A URL field (the browser checks its form). */
const url = (name: string, label: string, hint: string, extra: Extra = {}): SettingField => ({ name, label, type: 'url', hint, destination: true, ...extra });
/** A credential: a password field, never shown back. */
const secret = (name: string, label: string, hint: string, extra: Extra = {}): SettingField =>
  ({ name, label, type: 'password', secret: true, hint, ...extra });
/** The instruction of a setting the server's `env` setting stands in for when it is left empty. */
const orServer = (env: string): string => `Empty: the server’s ${env}.`;

const hookUrl = (hint: string): SettingField => url('url', 'Webhook URL', hint, { required: true, secret: true });
const twilio = (hint: string): SettingField[] => [
  text('number', 'Phone number', hint, REQUIRED),
  text('from', 'Sender number', 'E.164; empty: the server’s TWILIO_FROM.'),
  text('account', 'Twilio account SID', orServer('TWILIO_ACCOUNT')),
  secret('auth', 'Twilio auth token', orServer('TWILIO_AUTH')),
];
const E164 = 'The recipient in E.164 format, +15551234567.';
const METHODS = [['', 'POST with a body, else GET'], ['GET', 'GET'], ['POST', 'POST'], ['PUT', 'PUT'], ['PATCH', 'PATCH'], ['DELETE', 'DELETE']] as const;
/** One direction of a webhook's templates (`down`, `up`, `late`). */
const direction = (suffix: string, group: string): SettingField[] => [
  url(`url_${suffix}`, 'URL', 'May use $NAME, $STATUS, $CODE…; empty: nothing is sent.', { secret: true, group }),
  { name: `method_${suffix}`, label: 'Method', type: 'select', options: METHODS, group, hint: 'The HTTP method.' },
  { name: `headers_${suffix}`, label: 'Headers', type: 'headers', secret: true, group, hint: 'One per line, as Name: value.' },
  { name: `body_${suffix}`, label: 'Body', type: 'textarea', group, hint: 'May use $JSON, $NAME_JSON…' },
];
/** A priority select whose values are stored as numbers, `from` to `to`, and the provider's default `fallback`. */
const priority = (name: string, label: string, [from, to]: [number, number], fallback: string, hint: string): SettingField => ({
  name, label, type: 'select', numeric: true, hint,
  options: [['', `Default (${fallback})`], ...Array.from({ length: to - from + 1 }, (_, i): [string, string] => [String(from + i), String(from + i)])],
});

/** Each kind's fields, in the kind select's order; aliases (`msteamsw`, `pd`, `po`) use their kind's. */
export const KIND_FORMS: Readonly<Record<Exclude<ChannelKind, 'msteamsw' | 'pd' | 'po'>, KindForm>> = {
  webhook: {
    label: 'Webhook',
    fields: [
      url('url', 'Simple URL', 'POSTs the alert as JSON here. Or leave it empty and fill in the templates below.', { secret: true }),
      ...direction('down', 'When a check goes down'),
      ...direction('up', 'When a check comes back up'),
      ...direction('late', 'When a check is late (an alerting rule; empty: the down template)'),
    ],
  },
  email: { label: 'Email', fields: [text('address', 'Address', 'One address, or several separated by commas.', REQUIRED)] },
  slack: { label: 'Slack', fields: [hookUrl('The incoming webhook URL, https://hooks.slack.com/services/….')] },
  discord: { label: 'Discord', fields: [hookUrl('The channel’s webhook URL, https://discord.com/api/webhooks/….')] },
  mattermost: { label: 'Mattermost', fields: [hookUrl('The incoming webhook URL, https://mattermost.example.org/hooks/….')] },
  msteams: { label: 'Microsoft Teams', fields: [hookUrl('The Teams workflow’s webhook URL.')] },
  googlechat: { label: 'Google Chat', fields: [hookUrl('The space’s webhook URL, https://chat.googleapis.com/v1/spaces/….')] },
  rocketchat: { label: 'Rocket.Chat', fields: [hookUrl('The incoming webhook URL, https://chat.example.org/hooks/….')] },
  zulip: {
    label: 'Zulip',
    fields: [
      text('bot_email', 'Bot email', 'The bot’s address, from Zulip’s Personal settings › Bots.', { required: true, destination: true }),
      secret('api_key', 'Bot API key', 'The bot’s API key.', REQUIRED),
      url('site', 'Zulip site', 'Empty: https:// and the bot email’s domain.'),
      { name: 'mtype', label: 'Send to', type: 'select', required: true, options: [['stream', 'A stream'], ['private', 'A person (direct message)']], hint: 'A stream topic or a direct message.' },
      text('to', 'Stream or recipient', 'The stream’s name, or the person’s address or user id.', REQUIRED),
      text('topic', 'Topic', 'Empty: “<check> is DOWN” or “UP”.'),
    ],
  },
  telegram: {
    label: 'Telegram',
    fields: [
      text('chat_id', 'Chat id', 'The numeric chat id (groups start with -), or @channelname.', REQUIRED),
      secret('token', 'Bot token', orServer('TELEGRAM_TOKEN')),
      { name: 'thread_id', label: 'Topic (thread) id', type: 'number', hint: 'For a forum group’s topic; empty: the main chat.' },
    ],
  },
  matrix: {
    label: 'Matrix',
    fields: [
      text('room_id', 'Room id', 'As !abc123:example.org (the room’s settings › Advanced).', REQUIRED),
      url('homeserver', 'Homeserver', orServer('MATRIX_HOMESERVER')),
      secret('access_token', 'Access token', 'Empty: the server’s MATRIX_ACCESS_TOKEN, only with its own homeserver (above left empty).'),
    ],
  },
  ntfy: {
    label: 'ntfy',
    fields: [
      secret('topic', 'Topic', 'Letters, digits, - and _; whoever knows it reads the alerts.', REQUIRED),
      url('url', 'Server', 'Empty: the server’s NTFY_URL (https://ntfy.sh).'),
      priority('priority', 'Priority when down', [1, 5], '5, max', '1 (min) to 5 (max).'),
      priority('priority_up', 'Priority when up', [1, 5], '3', '1 (min) to 5 (max).'),
      secret('token', 'Access token', 'For a protected topic; empty: none.'),
    ],
  },
  gotify: {
    label: 'Gotify',
    fields: [
      url('url', 'Server', 'The Gotify server’s address, https://gotify.example.org.', REQUIRED),
      secret('token', 'Application token', 'From Gotify’s Apps tab.', REQUIRED),
    ],
  },
  pushover: {
    label: 'Pushover',
    fields: [
      secret('user_key', 'User key', 'Your user (or group) key: 30 letters and digits.', REQUIRED),
      secret('token', 'Application token', orServer('PUSHOVER_API_TOKEN')),
      priority('priority', 'Priority when down', [-2, 2], '0', '-2 (lowest) to 2 (emergency: repeats until acknowledged).'),
      priority('priority_up', 'Priority when up', [-2, 2], '0', '-2 (lowest) to 2 (emergency).'),
    ],
  },
  pushbullet: { label: 'Pushbullet', fields: [secret('token', 'Access token', 'From Pushbullet’s Settings › Account.', REQUIRED)] },
  pagerduty: { label: 'PagerDuty', fields: [secret('routing_key', 'Integration (routing) key', 'The Events API v2 integration key: 32 letters and digits.', REQUIRED)] },
  opsgenie: {
    label: 'Opsgenie',
    fields: [
      secret('key', 'API key', 'The API integration’s key.', REQUIRED),
      { name: 'region', label: 'Region', type: 'select', options: [['', 'US (default)'], ['us', 'US'], ['eu', 'EU']], hint: 'Where your Opsgenie account lives.' },
    ],
  },
  pagertree: { label: 'PagerTree', fields: [hookUrl('The integration’s webhook URL, https://api.pagertree.com/integration/….')] },
  spike: { label: 'Spike.sh', fields: [hookUrl('The integration URL, https://hooks.spike.sh/…/push-events.')] },
  victorops: { label: 'Splunk On-Call (VictorOps)', fields: [hookUrl('The REST integration URL, https://alert.victorops.com/integrations/generic/….')] },
  sms: { label: 'SMS (Twilio)', fields: twilio(E164) },
  whatsapp: { label: 'WhatsApp (Twilio)', fields: twilio(E164) },
  signal: { label: 'Signal (Twilio)', fields: twilio(E164) },
  call: { label: 'Phone call (Twilio, down only)', fields: twilio('The number to call in E.164 format, +15551234567.') },
  trello: {
    label: 'Trello (down only)',
    fields: [
      secret('token', 'Token', 'A member token that may write to the board.', REQUIRED),
      text('list_id', 'List id', 'The list the cards go to: 16 to 32 hex digits.', REQUIRED),
      secret('key', 'Application key', orServer('TRELLO_APP_KEY')),
      text('board_name', 'Board name', 'Shown only, to tell channels apart.'),
      text('list_name', 'List name', 'Shown only.'),
    ],
  },
  github: {
    label: 'GitHub issue (down only)',
    fields: [
      text('repo', 'Repository', 'As owner/name.', REQUIRED),
      secret('token', 'Token', 'A token that may create issues in the repository.', REQUIRED),
      { name: 'labels', label: 'Labels', type: 'list', hint: 'Separated by commas; empty: none.' },
    ],
  },
  apprise: {
    label: 'Apprise',
    fields: [
      url('url', 'Apprise API notify URL', 'The Apprise API’s notify endpoint, http://apprise:8000/notify/….', { required: true, secret: true }),
      secret('urls', 'Apprise URLs', 'Services to notify, as Apprise URLs; empty: the endpoint’s stored ones.'),
      text('tag', 'Tag', 'Notify only the stored services with this tag.'),
    ],
  },
  group: { label: 'Group of integrations', fields: [{ name: 'channels', label: 'Members', type: 'channels', required: true, hint: 'The integrations this one alerts through (groups cannot be members).' }] },
  shell: {
    label: 'Shell command',
    fields: [
      text('cmd_down', 'Command when down', 'Runs on the worker with $NAME, $STATUS, $CODE… set; empty: nothing.'),
      text('cmd_up', 'Command when up', 'Empty: nothing.'),
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
