import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http } from '../../helpers/factories.js';
import { Notification } from '../../../shared/models/notification.js';
import { ApiValidator } from './validator.js';

/** The OpenAPI description of the timed alerting rules against real responses. */
describe('the OpenAPI description of notify_late and repeat_every', () => {
  let validator: ApiValidator;
  before(async () => {
    validator = new ApiValidator((await http().get('/api/v3/openapi.json')).body);
  });

  it('describes a check created with both rules, and the payload', async () => {
    const project = await buildProject();
    const body = { name: 'rules', notify_late: true, repeat_every: 600 };
    validator.request('POST', '/checks/', body);
    const res = await http().post('/api/v3/checks/').set('X-Api-Key', project.apiKey).send(body);
    expect(res.body).to.include({ notify_late: true, repeat_every: 600 });
    validator.response('POST', '/checks/', res);
    validator.request('POST', '/checks/{code}', { notify_late: false, repeat_every: null });
  });

  it('describes a late warning and a reminder in the notification log', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook' });
    const check = await buildCheck(project, { channels: [channel._id] });
    const base = { checkId: check._id, channelId: channel._id, status: 'down' as const, flipCreated: new Date(), reason: '' as const, created: new Date(), updated: new Date() };
    await Notification.create([
      { ...base, _id: '00000000-0000-4000-8000-000000000001', flipId: 'a', event: 'late' },
      { ...base, _id: '00000000-0000-4000-8000-000000000002', flipId: 'b', event: 'reminder', n: 2 },
    ]);
    const res = await http().get(`/api/v3/checks/${check._id}/notifications/`).set('X-Api-Key', project.apiKey);
    expect(res.body.notifications.map((n: { status: string; reason: string }) => `${n.status}/${n.reason}`)).to.have.members(['late/late', 'down/reminder 2']);
    validator.response('GET', '/checks/{uuid}/notifications/', res);
  });
});
