import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';

describe('chat providers (slack, mattermost, discord, msteams)', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  const send = (kind: string, path: string) => deliver({ kind, value: `${receiver.url}${path}` }, sampleAlert(), testNotifyConfig(receiver.url));

  it('slack: POSTs an attachment titled with the check, linked to its details', async () => {
    await send('slack', '/services/T0/B0/x');
    const [req] = receiver.requests;
    expect([req?.method, req?.url, req?.headers['content-type']]).to.deep.equal(['POST', '/services/T0/B0/x', 'application/json']);
    const attachment = jsonBody(req).attachments[0];
    expect(attachment).to.include({ color: 'danger', title: '"backup" is DOWN', title_link: sampleAlert().detailsUrl });
    expect(attachment.fields).to.deep.include({ title: 'Last ping', value: '2024-05-01T12:00:30+00:00', short: true });
  });

  it('mattermost: POSTs the Slack-compatible payload', async () => {
    await send('mattermost', '/hooks/xyz');
    expect([receiver.requests[0]?.url, jsonBody(receiver.requests[0]).text]).to.deep.equal(['/hooks/xyz', '"backup" is DOWN']);
  });

  it('discord: POSTs an embed with the status colour and fields', async () => {
    await send('discord', '/api/webhooks/1/abc');
    const embed = jsonBody(receiver.requests[0]).embeds[0];
    expect(embed).to.include({ title: '"backup" is DOWN', url: sampleAlert().detailsUrl, color: 0xef4444 });
    expect(embed.fields).to.deep.include({ name: 'Tags', value: 'prod db', inline: true });
  });

  it('msteams: POSTs an Adaptive Card with the facts and a details link', async () => {
    await send('msteams', '/workflows/1');
    const card = jsonBody(receiver.requests[0]).attachments[0];
    expect(card.contentType).to.equal('application/vnd.microsoft.card.adaptive');
    expect(card.content.body[0].text).to.equal('"backup" is DOWN');
    expect(card.content.actions[0]).to.include({ type: 'Action.OpenUrl', url: sampleAlert().detailsUrl });
  });

  it('treats a 404 (deleted webhook) as permanent', async () => {
    await receiver.close();
    receiver = await startReceiver(() => ({ status: 404, body: 'no_service' }));
    const err = await send('slack', '/gone').then(() => null, (e: unknown) => e as DeliveryError);
    expect([err?.retryable, err?.permanent]).to.deep.equal([false, true]);
  });
});
