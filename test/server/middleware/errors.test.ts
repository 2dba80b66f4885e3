import { expect } from 'chai';
import { http } from '../../helpers/factories.js';

describe('error handling', () => {
  it('answers a malformed percent-encoding in the path with 400 JSON', async () => {
    const res = await http().get('/badge/key/sig/%ZZ.json');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ error: 'bad request' });
  });

  it('answers an unknown path with 404 JSON', async () => {
    const res = await http().get('/nowhere');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'not found' });
  });
});
