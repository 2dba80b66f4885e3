/** API keys made in the browser (server/pages/members/projects.ts, shared/services/api-keys.ts) work with the API until revoked. */
import { expect } from 'chai';
import { ApiKey } from '../../../shared/models/api-key.js';
import { hashApiKey } from '../../../shared/services/projects.js';
import { buildProject, http } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

describe('API keys in the browser', () => {
  async function owner() {
    const built = await buildProject();
    await join(built.project._id, await buildUser('own@example.org'), 'owner');
    const agent = webAgent();
    await signIn(agent, 'own@example.org');
    const _csrf = csrfOf((await agent.get(`/projects/${built.project._id}/settings/`)).text);
    return { agent, _csrf, projectId: built.project._id, built };
  }

  it('shows a new read-only key once, stores its digest, and the API takes it for reads only', async () => {
    const { agent, _csrf, projectId } = await owner();
    const res = await agent.post(`/projects/${projectId}/keys/`).type('form').send({ _csrf, name: 'wall', access: 'ro' });
    const key = /id="new-key">([^<]+)</.exec(res.text)?.[1] ?? '';
    expect(key).to.match(/^hcr_[A-Za-z0-9_-]{28}$/);
    expect(await ApiKey.findOne({ projectId }).lean()).to.include({ name: 'wall', readOnly: true, hash: hashApiKey(key) });
    expect((await agent.get(`/projects/${projectId}/settings/`)).text).not.to.contain(key);
    expect((await http().get('/api/v3/checks/').set('X-Api-Key', key)).status).to.equal(200);
    const write = await http().post('/api/v3/checks/').set('X-Api-Key', key).send({ name: 'x' });
    expect([write.status, write.body]).to.deep.equal([401, { error: 'wrong api key' }]);
  });

  it('revokes a key: the API answers 401 wrong api key', async () => {
    const { agent, _csrf, projectId } = await owner();
    const res = await agent.post(`/projects/${projectId}/keys/`).type('form').send({ _csrf, name: 'ci', access: 'rw' });
    const key = /id="new-key">([^<]+)</.exec(res.text)?.[1] ?? '';
    expect((await http().post('/api/v3/checks/').set('X-Api-Key', key).send({ name: 'x' })).status).to.equal(201);
    const { _id } = (await ApiKey.findOne({ projectId }).lean()) ?? { _id: '' };
    expect((await agent.post(`/projects/${projectId}/keys/${_id}/revoke`).type('form').send({ _csrf })).status).to.equal(303);
    const after = await http().get('/api/v3/checks/').set('X-Api-Key', key);
    expect([after.status, after.body]).to.deep.equal([401, { error: 'wrong api key' }]);
  });

  it('keeps the project keys from hc-admin working as before', async () => {
    const { built } = await owner();
    expect((await http().get('/api/v3/checks/').set('X-Api-Key', built.apiKey)).status).to.equal(200);
  });

  it('refuses a key without a name beside the form', async () => {
    const { agent, _csrf, projectId } = await owner();
    const res = await agent.post(`/projects/${projectId}/keys/`).type('form').send({ _csrf, name: '', access: 'rw' });
    expect(res.status).to.equal(400);
    expect(await ApiKey.countDocuments()).to.equal(0);
  });
});
