import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { channelSendsOn, validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { jsonBody, receiverPerTest } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

const TRELLO = JSON.stringify({ token: 'a1'.repeat(32), list_id: '5f0e1d2c3b4a59687766', board_name: 'Ops', list_name: 'Alerts' });
const GITHUB = JSON.stringify({ repo: 'alice/backups', token: 'github_pat_11AAAA0000', labels: ['outage', 'hc'] });

describe('tracker providers (trello, github)', () => {
  const local = receiverPerTest({ status: 200 });

  const send = (kind: string, value: string, config = testNotifyConfig(local.receiver.url)) => deliver({ kind, value }, sampleAlert(), config);
  const failure = (kind: string, value: string, config = testNotifyConfig(local.receiver.url)) =>
    send(kind, value, config).then(() => null, (e: unknown) => e as DeliveryError);

  it('trello: POSTs /1/cards with everything in the query string and no body', async () => {
    await send('trello', TRELLO);
    const [req] = local.receiver.requests;
    const url = new URL(req?.url ?? '', local.receiver.url);
    expect([req?.method, url.pathname, req?.headers['content-type'], req?.body]).to.deep.equal(['POST', '/1/cards', undefined, '']);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      idList: '5f0e1d2c3b4a59687766',
      name: 'Down: backup',
      desc: `nightly dump\n\n**Last Ping:** 2024-05-01T12:00:30+00:00\n\n[Full Details @ ${testNotifyConfig(local.receiver.url).siteName}](${sampleAlert().detailsUrl})`,
      key: 'trello-app-key',
      token: 'a1'.repeat(32),
    });
  });

  it("trello: prefers the channel's own application key; without any it fails at once, unsent", async () => {
    await send('trello', JSON.stringify({ ...JSON.parse(TRELLO), key: 'b2'.repeat(16) }));
    expect(new URL(local.receiver.requests[0]?.url ?? '', local.receiver.url).searchParams.get('key')).to.equal('b2'.repeat(16));
    const err = await failure('trello', TRELLO, testNotifyConfig(local.receiver.url, { trelloAppKey: '' }));
    expect([err?.message, err?.retryable, local.receiver.requests.length]).to.deep.equal(['trello application key is not configured (TRELLO_APP_KEY)', false, 1]);
  });

  it('trello: retries 429 and 5xx, not 401', async () => {
    for (const [status, retryable] of [[429, true], [502, true], [401, false]] as const) {
      local.answer = { status, body: 'invalid token' };
      const err = await failure('trello', TRELLO);
      expect([status, err?.retryable, err?.permanent]).to.deep.equal([status, retryable, false]);
    }
  });

  it('github: POSTs an issue with the bearer token, title, Markdown body and labels', async () => {
    local.answer = { status: 201 };
    await send('github', GITHUB);
    const [req] = local.receiver.requests;
    expect([req?.method, req?.url, req?.headers.authorization, req?.headers['content-type'], req?.headers.accept]).to.deep.equal(
      ['POST', '/repos/alice/backups/issues', 'Bearer github_pat_11AAAA0000', 'application/json', 'application/vnd.github+json'],
    );
    expect(jsonBody(req)).to.deep.equal({
      title: 'backup is DOWN',
      body: [
        `The check [backup](${sampleAlert().detailsUrl}) is **DOWN** (the expected ping did not arrive in time).`,
        '',
        '**Tags:** `prod` `db`',
        '**Last Ping:** 2024-05-01T12:00:30+00:00',
      ].join('\n'),
      labels: ['outage', 'hc'],
    });
  });

  it('github: labels default to none', async () => {
    await send('github', JSON.stringify({ repo: 'alice/backups', token: 'github_pat_11AAAA0000' }));
    expect(jsonBody(local.receiver.requests[0]).labels).to.deep.equal([]);
  });

  it('github: a 410 (repository gone) disables the channel; 404 is a refusal; 5xx is retried', async () => {
    for (const [status, retryable, permanent] of [[410, false, true], [404, false, false], [502, true, false]] as const) {
      local.answer = { status, body: '{"message":"Gone"}' };
      const err = await failure('github', GITHUB);
      expect([status, err?.retryable, err?.permanent]).to.deep.equal([status, retryable, permanent]);
    }
  });

  it('both open something on down only', () => {
    for (const [kind, value] of [['trello', TRELLO], ['github', GITHUB]]) {
      expect([kind, channelSendsOn(kind, value, 'down'), channelSendsOn(kind, value, 'up')]).to.deep.equal([kind, true, false]);
    }
  });

  it('refuse settings that are not what the kind needs, naming the setting', () => {
    expect(() => validateChannelValue('github', '{"repo":"alice","token":"github_pat_11AAAA0000"}')).to.throw(
      'invalid channel value: "repo" must be a repository as owner/name',
    );
    expect(() => validateChannelValue('github', 'alice/backups')).to.throw('invalid channel value: "token" is required');
    expect(() => validateChannelValue('trello', JSON.stringify({ ...JSON.parse(TRELLO), list_id: 'inbox' }))).to.throw(
      'invalid channel value: "list_id" must be a Trello list id',
    );
  });
});
