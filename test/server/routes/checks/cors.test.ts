import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';

const UUID = '7918b17b-a745-4db1-8575-9d2e07c97f79';

/** Path → the methods it allows (docs/api-reference.md, "CORS and methods"). */
const PATHS: Array<[string, string]> = [
  ['/api/v3/checks/', 'GET, POST, OPTIONS'],
  [`/api/v3/checks/${UUID}`, 'GET, POST, DELETE, OPTIONS'],
  [`/api/v3/checks/${uniqueKeyOf(UUID)}`, 'GET, OPTIONS'],
  [`/api/v3/checks/${UUID}/pause`, 'POST, OPTIONS'],
  [`/api/v3/checks/${UUID}/resume`, 'POST, OPTIONS'],
  [`/api/v3/checks/${UUID}/pings/`, 'GET, OPTIONS'],
  [`/api/v3/checks/${UUID}/pings/1/body`, 'GET, OPTIONS'],
  [`/api/v3/checks/${UUID}/flips/`, 'GET, OPTIONS'],
  [`/api/v3/checks/${uniqueKeyOf(UUID)}/flips/`, 'GET, OPTIONS'],
  ['/api/v3/channels/', 'GET, OPTIONS'],
  ['/api/v3/badges/', 'GET, OPTIONS'],
];

describe('Management API CORS and methods (docs/api-reference.md, "CORS and methods")', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  for (const [path, methods] of PATHS) {
    it(`answers OPTIONS ${path.slice(8)} with 204, no auth, and the CORS headers`, async () => {
      const res = await http().options(path);
      expect([res.status, res.text]).to.deep.equal([204, '']);
      expect(res.headers).to.include({
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'X-Api-Key',
        'access-control-allow-methods': methods,
        'access-control-max-age': '600',
      });
    });

    it(`answers HEAD and PUT ${path.slice(8)} with 405 and an empty body`, async () => {
      const head = await http().head(path);
      const put = await http().put(path).set('X-Api-Key', p.apiKey);
      expect([head.status, put.status, put.text]).to.deep.equal([405, 405, '']);
      expect(put.headers['access-control-allow-origin']).to.equal('*');
    });
  }

  it('puts the CORS headers on errors and successes', async () => {
    const denied = await http().get('/api/v3/checks/');
    const ok = await http().get('/api/v3/checks/').set('X-Api-Key', p.apiKey);
    expect(denied.headers['access-control-allow-origin']).to.equal('*');
    expect(ok.headers['access-control-allow-methods']).to.equal('GET, POST, OPTIONS');
  });

  it('answers 404 for a malformed UUID before considering the method', async () => {
    const options = await http().options(`/api/v3/checks/${UUID.toUpperCase()}`);
    const put = await http().put(`/api/v3/checks/${UUID.slice(1)}/pause`);
    expect([options.status, put.status]).to.deep.equal([404, 404]);
  });

  it('answers 405 before parsing the body or checking the key', async () => {
    const check = await buildCheck(p);
    const res = await http().put(`/api/v3/checks/${check._id}`).set('Content-Type', 'application/json').send('{bad');
    expect(res.status).to.equal(405);
  });

  it('answers 404 for a path that is not an API route', async () => {
    const res = await http().get(`/api/v3/checks/${UUID}/`).set('X-Api-Key', p.apiKey);
    expect(res.status).to.equal(404);
  });
});
