import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { badgeSignature } from '../../../../shared/domain/badges.js';
import { api, BASE_URL } from '../support.js';

const SECRET = 'test-secret';

describe('GET /api/v3/badges/', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('has one entry per distinct tag plus *', async () => {
    await buildCheck(p, { tags: 'prod db' });
    await buildCheck(p, { tags: ' db  web ' });
    const res = await api(p.apiKey).get('/badges/');
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body.badges).sort()).to.deep.equal(['*', 'db', 'prod', 'web']);
  });

  it('has only * for a project without tags', async () => {
    await buildCheck(p);
    const res = await api(p.apiKey).get('/badges/');
    expect(Object.keys(res.body.badges)).to.deep.equal(['*']);
  });

  it('gives the six signed URLs of a tag', async () => {
    await buildCheck(p, { tags: 'db' });
    const sig = badgeSignature(p.project.badgeKey, SECRET, 'db');
    const root = `${BASE_URL}/badge/${p.project.badgeKey}`;
    expect((await api(p.apiKey).get('/badges/')).body.badges.db).to.deep.equal({
      svg: `${root}/${sig}-2/db.svg`, svg3: `${root}/${sig}/db.svg`,
      json: `${root}/${sig}-2/db.json`, json3: `${root}/${sig}/db.json`,
      shields: `${root}/${sig}-2/db.shields`, shields3: `${root}/${sig}/db.shields`,
    });
  });

  it('gives the overall * URLs without a tag segment', async () => {
    const sig = badgeSignature(p.project.badgeKey, SECRET, '*');
    const res = await api(p.apiKey).get('/badges/');
    expect(res.body.badges['*'].svg).to.equal(`${BASE_URL}/badge/${p.project.badgeKey}/${sig}-2.svg`);
    expect(res.body.badges['*'].json3).to.equal(`${BASE_URL}/badge/${p.project.badgeKey}/${sig}.json`);
  });

  it('encodes special characters in a tag twice', async () => {
    await buildCheck(p, { tags: 'db@dc1' });
    const res = await api(p.apiKey).get('/badges/');
    expect(res.body.badges['db@dc1'].svg).to.match(/\/db%2540dc1\.svg$/);
  });

  it("leaves out other projects' tags", async () => {
    await buildCheck(await buildProject(), { tags: 'foreign' });
    const res = await api(p.apiKey).get('/badges/');
    expect(res.body.badges).not.to.have.property('foreign');
  });

  it('works with a read-only key', async () => {
    const res = await api(p.apiKeyReadonly).get('/badges/');
    expect(res.status).to.equal(200);
  });

  it('answers 401 for an unknown key', async () => {
    const res = await api('y'.repeat(32)).get('/badges/');
    expect([res.status, res.body.error]).to.deep.equal([401, 'wrong api key']);
  });
});
