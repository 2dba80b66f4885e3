import { expect } from 'chai';
import { buildProject, http } from '../../../helpers/factories.js';
import { checkIn, clock } from './fixtures.js';

describe('GET /b/<states>/<check badge key>.<fmt>', () => {
  it('reports late for a check in grace with 3 states', async () => {
    const check = await checkIn(await buildProject(), 'grace', { name: 'backup' });
    const res = await http(clock).get(`/b/3/${check.badgeKey}.json`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'late', total: 1, grace: 1, down: 0 });
  });

  it('reports up for a check in grace with any other number of states', async () => {
    const check = await checkIn(await buildProject(), 'grace');
    for (const states of ['2', '7']) {
      const res = await http(clock).get(`/b/${states}/${check.badgeKey}.json`);
      expect(res.body).to.deep.equal({ status: 'up', total: 1, grace: 1, down: 0 });
    }
  });

  it('answers 404 for /B/<states>/… (paths are case-sensitive)', async () => {
    const check = await checkIn(await buildProject(), 'up');
    expect((await http(clock).get(`/B/2/${check.badgeKey}.json`)).status).to.equal(404);
  });

  it('reports down for a down check', async () => {
    const check = await checkIn(await buildProject(), 'down');
    const res = await http(clock).get(`/b/2/${check.badgeKey}.json`);
    expect(res.body).to.deep.equal({ status: 'down', total: 1, grace: 0, down: 1 });
  });

  it('labels the shields document with the check name', async () => {
    const check = await checkIn(await buildProject(), 'grace', { name: 'backup' });
    const res = await http(clock).get(`/b/3/${check.badgeKey}.shields`);
    expect(res.body).to.deep.equal({ schemaVersion: 1, label: 'backup', message: 'late', color: 'important' });
  });

  it('labels the badge with the check UUID when the name is empty', async () => {
    const check = await checkIn(await buildProject(), 'up', { name: '' });
    const res = await http(clock).get(`/b/2/${check.badgeKey}.svg`).buffer(true);
    expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(res.body.toString()).to.include(`>${check._id}<`).and.include('#4c1');
  });

  it('answers 404 for an unknown badge key', async () => {
    const res = await http(clock).get('/b/2/b0e5c0de-0000-4000-8000-000000000000.json');
    expect(res.status).to.equal(404);
  });

  it('answers 404 for an unknown format or a states segment that is not a number', async () => {
    const check = await checkIn(await buildProject(), 'up');
    expect((await http(clock).get(`/b/2/${check.badgeKey}.png`)).status).to.equal(404);
    expect((await http(clock).get(`/b/x/${check.badgeKey}.json`)).status).to.equal(404);
  });

  it('sends CORS headers, forbids caching and answers OPTIONS with 204', async () => {
    const check = await checkIn(await buildProject(), 'up');
    const res = await http(clock).options(`/b/2/${check.badgeKey}.svg`);
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['cache-control']).to.include('no-cache');
  });
});
