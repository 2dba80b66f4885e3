/**
 * A read-only API key (a wall display's) never learns a check's UUID, which is all a ping needs
 * (docs/api-reference.md, "Check object"): every path it may read names checks by `unique_key`.
 */
import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { createApiKey } from '../../../shared/services/api-keys.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import { api, apiAt } from './support.js';

describe('read-only API keys and check UUIDs', () => {
  let p: TestProject;
  let check: CheckDoc;
  let windowId: string;
  beforeEach(async () => {
    p = await buildProject();
    check = await buildCheck(p, { name: 'backup', tags: 'db' });
    const now = Date.now();
    const created = await api(p.apiKey).post('/maintenance/', { name: 'upgrade', start: new Date(now - 60_000).toISOString(), end: new Date(now + 3600_000).toISOString(), checks: [check._id] });
    expect(created.status).to.equal(201);
    windowId = created.body.uuid;
  });

  it('lists a maintenance window’s checks by unique_key to a read-only key, by UUID to a read-write key', async () => {
    const ro = await api(p.apiKeyReadonly).get('/maintenance/');
    expect(ro.status).to.equal(200);
    expect(ro.body.maintenance[0].checks).to.deep.equal([uniqueKeyOf(check._id)]);
    expect((await api(p.apiKeyReadonly).get(`/maintenance/${windowId}`)).body.checks).to.deep.equal([uniqueKeyOf(check._id)]);
    expect((await api(p.apiKey).get('/maintenance/')).body.maintenance[0].checks).to.deep.equal([check._id]);
  });

  it('answers no path a read-only key may read (project key or named key, every API version) with a UUID', async () => {
    const named = (await createApiKey(p.project._id, 'wall', true, new Date())).key;
    const key = uniqueKeyOf(check._id);
    for (const secret of [p.apiKeyReadonly, named]) {
      for (const version of [1, 2, 3] as const) {
        for (const path of ['/checks/', `/checks/${key}`, `/checks/${key}/flips/`, '/maintenance/', `/maintenance/${windowId}`, '/badges/', '/channels/']) {
          const res = await apiAt(version, secret).get(path);
          if (res.status === 401 || res.status === 404) continue;
          expect(res.status, `${version} ${path}`).to.equal(200);
          expect(res.text, `v${version} ${path}`).not.to.contain(check._id);
        }
      }
    }
  });
});
