import { expect } from 'chai';
import { badgeSignature } from '../../../../shared/domain/badges.js';
import { config } from '../../../../shared/config.js';
import { buildProject, http } from '../../../helpers/factories.js';
import { badgePaths, checkIn, clock } from './fixtures.js';

describe('badge paths: signatures, formats and tag encoding', () => {
  it('answers 404 for a wrong signature', async () => {
    const project = await buildProject();
    const res = await http(clock).get(`/badge/${project.project.badgeKey}/AAAAAAAA/db.json`);
    expect(res.status).to.equal(404);
  });

  it('answers 404 for /BADGE/… (paths are case-sensitive)', async () => {
    const project = await buildProject();
    const path = badgePaths(project, 'db').json3.replace('/badge/', '/BADGE/');
    expect((await http(clock).get(path)).status).to.equal(404);
  });

  it("answers 404 for another tag's signature", async () => {
    const project = await buildProject();
    const path = badgePaths(project, 'db').json3.replace('/db.json', '/web.json');
    expect((await http(clock).get(path)).status).to.equal(404);
  });

  it('answers 404 for an unknown format', async () => {
    const project = await buildProject();
    const path = badgePaths(project, 'db').json3.replace(/\.json$/, '.png');
    expect((await http(clock).get(path)).status).to.equal(404);
  });

  it('answers 404 for an unknown badge key with a matching signature', async () => {
    const badgeKey = 'b0e5c0de-0000-4000-8000-000000000000';
    const sig = badgeSignature(badgeKey, config.secretKey, 'db');
    expect((await http(clock).get(`/badge/${badgeKey}/${sig}/db.json`)).status).to.equal(404);
  });

  it('reads a signature longer than 8 characters by its first 8, as 3-state', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace', { tags: 'db' });
    const sig = badgeSignature(project.project.badgeKey, config.secretKey, 'db');
    const res = await http(clock).get(`/badge/${project.project.badgeKey}/${sig}-3x/db.json`);
    expect(res.body.status).to.equal('late');
  });

  it('serves a tag with special characters through its twice-encoded URL', async () => {
    const project = await buildProject();
    await checkIn(project, 'down', { tags: "db@dc1 it's(1)*" });
    const paths = [badgePaths(project, 'db@dc1').json, badgePaths(project, "it's(1)*").json];
    expect(paths[0]).to.match(/\/db%2540dc1\.json$/);
    for (const path of paths) expect((await http(clock).get(path)).body).to.include({ status: 'down', total: 1 });
  });

  it('answers 404 for a tag encoded only once', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'db@dc1' });
    const path = badgePaths(project, 'db@dc1').json.replace('db%2540dc1', 'db%40dc1');
    expect((await http(clock).get(path)).status).to.equal(404);
  });

  it('serves a tag containing dots, taking the format after the last dot', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'v1.2' });
    const res = await http(clock).get(badgePaths(project, 'v1.2').shields);
    expect(res.body).to.include({ label: 'v1.2', message: 'up' });
  });

  it('sends CORS headers and forbids caching', async () => {
    const project = await buildProject();
    const res = await http(clock).get(badgePaths(project, 'db').json);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['cache-control']).to.include('no-cache');
  });

  it('answers OPTIONS with 204 and the allowed methods', async () => {
    const project = await buildProject();
    const res = await http(clock).options(badgePaths(project, 'db').svg);
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-methods']).to.equal('GET, OPTIONS');
  });

  it('answers 405 to POST', async () => {
    const project = await buildProject();
    expect((await http(clock).post(badgePaths(project, '*').json)).status).to.equal(405);
  });
});
