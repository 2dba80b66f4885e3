import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';

describe('Management API request bodies (docs/api-reference.md, "Request bodies")', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('answers 400 could not parse request body for invalid JSON, even without a key', async () => {
    const res = await http().post('/api/v3/checks/').set('Content-Type', 'application/json').send('{"name":');
    expect([res.status, res.body.error]).to.deep.equal([400, 'could not parse request body']);
  });

  it('answers 400 for a body that is not UTF-8', async () => {
    const res = await http().post('/api/v3/checks/').set('X-Api-Key', p.apiKey).send(Buffer.from([0x7b, 0xff, 0x7d]));
    expect([res.status, res.body.error]).to.deep.equal([400, 'could not parse request body']);
  });

  it('answers 400 value is not an object for a JSON array', async () => {
    const res = await http().post('/api/v3/checks/').set('X-Api-Key', p.apiKey).set('Content-Type', 'application/json').send('[1,2,3]');
    expect(res.body.error).to.equal('json validation error: value is not an object');
  });

  it('answers 400 value is not an object for a JSON number on update', async () => {
    const check = await buildCheck(p);
    const res = await http().post(`/api/v3/checks/${check._id}`).set('X-Api-Key', p.apiKey).send('123');
    expect([res.status, res.body.error]).to.deep.equal([400, 'json validation error: value is not an object']);
  });

  it('parses JSON whatever the Content-Type says', async () => {
    const res = await http().post('/api/v3/checks/').set('X-Api-Key', p.apiKey).set('Content-Type', 'text/plain').send('{"name":"t"}');
    expect([res.status, res.body.name]).to.deep.equal([201, 't']);
  });
});
