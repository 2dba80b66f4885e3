/**
 * The per-kind form descriptions (server/pages/integrations/channel-kinds.ts) against the kinds' Joi schemas (shared/notify): every
 * kind has a form, its fields are exactly its settings, "required" as the schema says, and no field takes a name
 * the form itself uses. And an example of each kind's fields, assembled as the page does, is stored as the API stores it.
 */
import { expect } from 'chai';
import { CHANNEL_KINDS, providerOf } from '../../../shared/notify/kinds.js';
import { channelValueOf } from '../../../server/services/channel-input.js';
import { fieldsOf, settingsOfForm } from '../../../server/pages/integrations/channel-form.js';

/** Names the form's own fields have. */
const FORM_NAMES = ['_csrf', 'kind', 'name', 'notify', 'choose', 'fields_kind', 'clear'];
const UUIDS = ['6f2e4c1a-0000-4000-8000-000000000001', '6f2e4c1a-0000-4000-8000-000000000002'];
const PHONE = { number: '+15551234567', from: '+15557654321', account: 'AC123', auth: 'secret-auth' };
const HOOK = { url: 'https://hooks.example.org/services/T0/B0/XXXX' };

/** Valid form fields of each kind (text as typed), and the settings object the API is given for the same channel. */
const EXAMPLES: Record<string, [Record<string, string | string[]>, object]> = {
  apprise: [{ url: 'https://apprise.example.org/notify/k', urls: 'tgram://1:A/-100', tag: '' }, { url: 'https://apprise.example.org/notify/k', urls: 'tgram://1:A/-100' }],
  call: [PHONE, PHONE],
  discord: [HOOK, HOOK],
  email: [{ address: 'ops@example.org' }, { address: 'ops@example.org' }],
  github: [{ repo: 'acme/api', token: 'ghp_abcdefgh', labels: 'ops, down' }, { repo: 'acme/api', token: 'ghp_abcdefgh', labels: ['ops', 'down'] }],
  googlechat: [HOOK, HOOK],
  gotify: [{ url: 'https://gotify.example.org', token: 'AbCdEf' }, { url: 'https://gotify.example.org', token: 'AbCdEf' }],
  group: [{ channels: UUIDS }, { channels: UUIDS }],
  matrix: [{ room_id: '!abc:example.org', homeserver: '', access_token: 'syt_x' }, { room_id: '!abc:example.org', access_token: 'syt_x' }],
  mattermost: [HOOK, HOOK],
  msteams: [HOOK, HOOK],
  msteamsw: [HOOK, HOOK],
  ntfy: [{ topic: 'ops-alerts', url: '', priority: '4', priority_up: '' }, { topic: 'ops-alerts', priority: 4 }],
  opsgenie: [{ key: 'abcd-1234-efgh', region: 'eu' }, { key: 'abcd-1234-efgh', region: 'eu' }],
  pd: [{ routing_key: 'a'.repeat(32) }, { routing_key: 'a'.repeat(32) }],
  pagerduty: [{ routing_key: 'a'.repeat(32) }, { routing_key: 'a'.repeat(32) }],
  pagertree: [HOOK, HOOK],
  po: [{ user_key: 'u'.repeat(30), priority: '-1' }, { user_key: 'u'.repeat(30), priority: -1 }],
  pushbullet: [{ token: 'o.Ab12Cd34Ef56Gh78' }, { token: 'o.Ab12Cd34Ef56Gh78' }],
  pushover: [{ user_key: 'u'.repeat(30), token: 't0ken', priority: '2', priority_up: '0' }, { user_key: 'u'.repeat(30), token: 't0ken', priority: 2, priority_up: 0 }],
  rocketchat: [HOOK, HOOK],
  shell: [{ cmd_down: 'logger down', cmd_up: '' }, { cmd_down: 'logger down' }],
  signal: [PHONE, PHONE],
  slack: [HOOK, HOOK],
  sms: [PHONE, PHONE],
  spike: [HOOK, HOOK],
  telegram: [{ chat_id: '@opschannel', thread_id: '3' }, { chat_id: '@opschannel', thread_id: 3 }],
  trello: [{ token: 'T'.repeat(32), list_id: 'ab'.repeat(12), board_name: 'Ops' }, { token: 'T'.repeat(32), list_id: 'ab'.repeat(12), board_name: 'Ops' }],
  victorops: [HOOK, HOOK],
  webhook: [{ url: '', url_down: 'https://example.org/d', method_down: '', headers_down: 'X-A: 1' }, { url_down: 'https://example.org/d', headers_down: { 'X-A': '1' } }],
  whatsapp: [PHONE, PHONE],
  zulip: [{ bot_email: 'bot@example.zulipchat.com', api_key: 'k3y', site: '', mtype: 'private', to: '42', topic: '' }, { bot_email: 'bot@example.zulipchat.com', api_key: 'k3y', mtype: 'private', to: '42' }],
};

describe('channel kinds: the form of each kind', () => {
  for (const kind of CHANNEL_KINDS) {
    it(`${kind}: fields are exactly the settings of its schema, required as it says`, () => {
      const keys = Object.entries(providerOf(kind).schema.describe().keys as Record<string, { flags?: { presence?: string } }>);
      const fields = fieldsOf(kind);
      expect(fields.map((field) => field.name)).to.have.members(keys.map(([name]) => name));
      const required = keys.filter(([, key]) => key.flags?.presence === 'required').map(([name]) => name);
      expect(fields.filter((field) => field.required).map((field) => field.name)).to.have.members(required);
      expect(fields.map((field) => field.name).filter((name) => FORM_NAMES.includes(name))).to.deep.equal([]);
    });

    it(`${kind}: an example of its fields stores what the API stores for the same settings`, () => {
      const [settings, apiValue] = EXAMPLES[kind];
      const values = { kind, name: '', notify: 'both', settings, stored: [], clear: [] };
      expect(channelValueOf(kind, settingsOfForm(values, null), true, true)).to.equal(channelValueOf(kind, apiValue as Record<string, unknown>, true, true));
    });
  }
});
