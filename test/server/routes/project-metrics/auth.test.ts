import { expect } from 'chai';
import { buildCheck } from '../../../helpers/factories.js';
import { createApiKey, revokeApiKey } from '../../../../shared/services/api-keys.js';
import { READONLY_KEY, appWith, opsOf, projectWithReadonlyKey } from './support.js';

describe('GET /projects/<uuid>/metrics/<key>: keys and routes', () => {
  it('answers 200 with the read-only key in the path', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/${READONLY_KEY}`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/plain');
  });

  it('accepts a project’s generated (hashed) read-only key', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/${project.apiKeyReadonly}`);
    expect(res.status).to.equal(200);
  });

  it('accepts a named read-only key made in the web app, and refuses a named read-write key or a revoked one with 403', async () => {
    const project = await projectWithReadonlyKey();
    const id = project.project._id;
    const readOnly = await createApiKey(id, 'wall', true, new Date());
    const readWrite = await createApiKey(id, 'deploys', false, new Date());
    expect((await appWith().get(`/projects/${id}/metrics/${readOnly.key}`)).status).to.equal(200);
    expect([(await appWith().get(`/projects/${id}/metrics/${readWrite.key}`)).status]).to.deep.equal([403]);
    await revokeApiKey(id, readOnly.doc._id);
    const revoked = await appWith().get(`/projects/${id}/metrics/${readOnly.key}`);
    expect([revoked.status, revoked.text]).to.deep.equal([403, '']);
  });

  it('refuses the read-write key with 403 and an empty body', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/${project.apiKey}`);
    expect([res.status, res.text]).to.deep.equal([403, '']);
  });

  it('refuses an unknown key on the older checks/metrics/ path with 403', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/checks/metrics/${'X'.repeat(32)}`);
    expect(res.status).to.equal(403);
  });

  it('serves the older checks/metrics/ path with the read-only key', async () => {
    const project = await projectWithReadonlyKey();
    await buildCheck(project, { name: 'db' });
    const res = await appWith().get(`/projects/${project.project._id}/checks/metrics/${READONLY_KEY}`);
    expect(res.status).to.equal(200);
    expect(res.text).to.include('hc_checks_total 1\n');
  });

  it('answers 400 for a key that is not 32 characters', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/${READONLY_KEY}R`);
    expect([res.status, res.text]).to.deep.equal([400, '']);
  });

  it('answers 401 on the bare metrics/ path without a Bearer header', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/`).set('Authorization', `Basic ${READONLY_KEY}`);
    expect([res.status, res.text]).to.deep.equal([401, '']);
  });

  it('accepts the read-only key as a Bearer token on the bare metrics/ path', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/${project.project._id}/metrics/`).set('Authorization', `Bearer ${READONLY_KEY}`);
    expect(res.status).to.equal(200);
  });

  it('removes only the "Bearer " prefix, not a leading B of the key', async () => {
    const key = `B${'R'.repeat(31)}`;
    const project = await projectWithReadonlyKey(key);
    const res = await appWith().get(`/projects/${project.project._id}/metrics/`).set('Authorization', `Bearer ${key}`);
    expect(res.status).to.equal(200);
  });

  it('finds the project by the key alone, as the reference does', async () => {
    await projectWithReadonlyKey();
    const res = await appWith().get(`/projects/00000000-0000-4000-8000-000000000000/metrics/${READONLY_KEY}`);
    expect(res.status).to.equal(200);
  });

  it('answers 404 for a malformed project UUID or a key with non-slug characters', async () => {
    const project = await projectWithReadonlyKey();
    const upper = await appWith().get(`/projects/${project.project._id.toUpperCase()}/metrics/${READONLY_KEY}`);
    const dotted = await appWith().get(`/projects/${project.project._id}/metrics/${'R'.repeat(31)}.`);
    expect([upper.status, dotted.status]).to.deep.equal([404, 404]);
  });

  it('answers 404 when PROMETHEUS_ENABLED is off', async () => {
    const project = await projectWithReadonlyKey();
    const res = await appWith(opsOf({ PROMETHEUS_ENABLED: 'false' })).get(`/projects/${project.project._id}/metrics/${READONLY_KEY}`);
    expect(res.status).to.equal(404);
  });
});
