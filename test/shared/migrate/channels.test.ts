/** The channel table of docs/migrating.md (shared/migrate/channels.ts): Healthchecks' stored `kind` and `value` as ours, or skipped with why. */
import { expect } from 'chai';
import { mapChannel, referenceValue } from '../../../shared/migrate/channels.js';

/** Values in the shapes Healthchecks stores (its hc/api/models.py `…Conf` classes and OAuth answers). */
const MAPPED: [string, string, unknown][] = [
  ['email', '{"value": "a@example.org", "up": true, "down": false}', { address: 'a@example.org', up: true, down: false }],
  ['email', 'b@example.org', 'b@example.org'],
  ['sms', '{"value": "+37120000000", "up": true, "down": true}', { number: '+37120000000', up: true, down: true }],
  ['slack', '{"ok": true, "team_name": "T", "incoming_webhook": {"url": "https://hooks.slack.com/services/A/B/C", "channel": "#x"}}', { url: 'https://hooks.slack.com/services/A/B/C' }],
  ['discord', '{"webhook": {"url": "https://discord.com/api/webhooks/1/abc", "id": "1"}}', { url: 'https://discord.com/api/webhooks/1/abc' }],
  ['telegram', '{"id": -1001234, "type": "group", "name": "Ops", "thread_id": 5}', { chat_id: -1001234, thread_id: 5 }],
  ['pd', '{"service_key": "abcdefabcdefabcdefabcdefabcdef12", "account": "acme"}', { routing_key: 'abcdefabcdefabcdefabcdefabcdef12' }],
  ['po', 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG|1|0', { user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', priority: 1, priority_up: 0 }],
  ['ntfy', '{"topic": "backups", "url": "https://ntfy.sh", "priority": 5, "priority_up": 3, "token": ""}', { topic: 'backups', url: 'https://ntfy.sh', priority: 5, priority_up: 3 }],
  ['gotify', '{"url": "https://gotify.example.org", "token": "Axxxx", "priority": 5, "priority_up": null}', { url: 'https://gotify.example.org', token: 'Axxxx' }],
];

const parsed = (value: string): unknown => (value.startsWith('{') ? JSON.parse(value) : value);

describe('the Healthchecks channel table', () => {
  for (const [kind, value, ours] of MAPPED) {
    it(`maps ${kind} ${value.slice(0, 40)}`, () => {
      const mapped = mapChannel(kind, value);
      expect(mapped.ok, JSON.stringify(mapped)).to.equal(true);
      if (mapped.ok) expect([mapped.kind, parsed(mapped.value)]).to.deep.equal([kind, ours]);
    });
  }

  it('skips a kind we do not have, naming it', () => {
    expect(mapChannel('hipchat', 'https://x')).to.deep.equal({ ok: false, reason: 'kind "hipchat" has no counterpart here' });
  });

  it('skips a value that does not validate, with the reason, rather than storing it half-made', () => {
    const mapped = mapChannel('github', '{"installation_id": 1, "repo": "acme/ops", "labels": []}');
    expect(mapped).to.deep.equal({ ok: false, reason: 'invalid channel value: "token" is required' });
  });

  it('writes our email and phone values back in the shape Healthchecks stores', () => {
    expect(JSON.parse(referenceValue('email', '{"address":"a@example.org","up":true,"down":false}'))).to.deep.equal({ value: 'a@example.org', up: true, down: false });
    expect(referenceValue('webhook', '{"url":"https://e.org"}')).to.equal('{"url":"https://e.org"}');
  });
});
