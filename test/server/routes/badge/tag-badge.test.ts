import { expect } from 'chai';
import { buildProject, http } from '../../../helpers/factories.js';
import { badgePaths, checkIn, clock } from './fixtures.js';

describe('GET /badge/<badge key>/<sig>/<tag>.<fmt>', () => {
  it('reports late with counts in the 3-state json document', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'db' });
    await checkIn(project, 'grace', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').json3);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'late', total: 2, grace: 1, down: 0 });
  });

  it('reports up in 2-state mode but still counts the check in grace', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').json);
    expect(res.body).to.deep.equal({ status: 'up', total: 1, grace: 1, down: 0 });
  });

  it('reports down when any counted check is down, in either mode', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace', { tags: 'db' });
    await checkIn(project, 'down', { tags: 'db' });
    const paths = badgePaths(project, 'db');
    expect((await http(clock).get(paths.json)).body).to.deep.equal({ status: 'down', total: 2, grace: 1, down: 1 });
    expect((await http(clock).get(paths.json3)).body.status).to.equal('down');
  });

  it('counts new and paused checks as up', async () => {
    const project = await buildProject();
    await checkIn(project, 'new', { tags: 'db' });
    await checkIn(project, 'paused', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').json3);
    expect(res.body).to.deep.equal({ status: 'up', total: 2, grace: 0, down: 0 });
  });

  it('counts a run that overran its grace time as down', async () => {
    const project = await buildProject();
    await checkIn(project, 'overrun', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').json3);
    expect(res.body).to.deep.equal({ status: 'down', total: 1, grace: 0, down: 1 });
  });

  it('counts only checks carrying the tag as an exact token', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'prod db' });
    await checkIn(project, 'down', { tags: 'dbx prod' });
    await checkIn(project, 'down', { tags: 'db', projectId: (await buildProject()).project._id });
    const res = await http(clock).get(badgePaths(project, 'db').json3);
    expect(res.body).to.deep.equal({ status: 'up', total: 1, grace: 0, down: 0 });
  });

  it('answers the shields document labelled with the tag', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace', { tags: 'db' });
    const paths = badgePaths(project, 'db');
    expect((await http(clock).get(paths.shields3)).body).to.deep.equal({ schemaVersion: 1, label: 'db', message: 'late', color: 'important' });
    expect((await http(clock).get(paths.shields)).body).to.deep.equal({ schemaVersion: 1, label: 'db', message: 'up', color: 'success' });
  });

  it('answers critical in the shields document for a down check', async () => {
    const project = await buildProject();
    await checkIn(project, 'down', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').shields);
    expect(res.body).to.include({ message: 'down', color: 'critical' });
  });

  it('answers an SVG badge with the tag and the late colour', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace', { tags: 'db' });
    const res = await http(clock).get(badgePaths(project, 'db').svg3).buffer(true);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
    const svg = res.body.toString();
    expect(svg).to.match(/^<svg/).and.include('>db<').and.include('>late<').and.include('#fe7d37');
  });

  it('draws up in #4c1 and down in #e05d44', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'ok' });
    await checkIn(project, 'down', { tags: 'bad' });
    const up = (await http(clock).get(badgePaths(project, 'ok').svg).buffer(true)).body.toString();
    const down = (await http(clock).get(badgePaths(project, 'bad').svg).buffer(true)).body.toString();
    expect(up).to.include('>up<').and.include('#4c1');
    expect(down).to.include('>down<').and.include('#e05d44');
  });

  it('reports up with total 0 for a tag no check carries', async () => {
    const project = await buildProject();
    const res = await http(clock).get(badgePaths(project, 'nothing').json3);
    expect(res.body).to.deep.equal({ status: 'up', total: 0, grace: 0, down: 0 });
  });
});
