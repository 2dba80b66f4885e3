import { expect } from 'chai';
import { http } from '../helpers/factories.js';

describe('GET /api/v3/status/', () => {
  it('answers OK when MongoDB and Redis are reachable', async () => {
    const res = await http().get('/api/v3/status/');
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('OK');
  });
});
