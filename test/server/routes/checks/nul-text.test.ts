import { expect } from 'chai';
import { buildProject, type TestProject } from '../../../helpers/factories.js';
import { api } from '../support.js';

/**
 * A NUL in the Management API's text (docs/api.md): MongoDB stores it, so the answer is the string as sent, or a 400 naming the
 * field; the same on every server, never a 500.
 */
describe('Management API: a NUL in a check\'s text', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  for (const field of ['name', 'desc', 'tags'] as const) {
    it(`stores a NUL in ${field} as sent or refuses it naming the field, never a 500`, async () => {
      const res = await api(p.apiKey).post('/checks/', { [field]: 'a\u0000b' });
      if (res.status === 400) {
        expect(res.body.error).to.be.a('string').and.include(field);
      } else {
        expect(res.status).to.equal(201);
        expect(res.body[field]).to.equal('a\u0000b');
        const read = await api(p.apiKey).get(`/checks/${(res.body as { ping_url: string }).ping_url.split('/').pop()}`);
        expect(read.body[field]).to.equal('a\u0000b');
      }
    });
  }
});
