import { expect } from 'chai';
import { config } from '../../../../shared/config.js';
import { buildProject, http } from '../../../helpers/factories.js';
import { badgePaths, checkIn, clock } from './fixtures.js';

describe('GET /badge/<badge key>/<sig>.<fmt> (all checks)', () => {
  it('counts every check of the project, tagged or not', async () => {
    const project = await buildProject();
    await checkIn(project, 'up', { tags: 'db' });
    await checkIn(project, 'grace');
    await checkIn(project, 'down', { projectId: (await buildProject()).project._id });
    const res = await http(clock).get(badgePaths(project, '*').json3);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'late', total: 2, grace: 1, down: 0 });
  });

  it('uses the 2-state signature suffix', async () => {
    const project = await buildProject();
    await checkIn(project, 'grace');
    const path = badgePaths(project, '*').json;
    expect(path).to.match(/\/[A-Za-z0-9_-]{8}-2\.json$/);
    expect((await http(clock).get(path)).body.status).to.equal('up');
  });

  it('labels the shields document with the site name', async () => {
    const project = await buildProject();
    await checkIn(project, 'down');
    const res = await http(clock).get(badgePaths(project, '*').shields3);
    expect(res.body).to.deep.equal({ schemaVersion: 1, label: config.siteName, message: 'down', color: 'critical' });
  });

  it('labels the SVG badge with the site name', async () => {
    const project = await buildProject();
    const res = await http(clock).get(badgePaths(project, '*').svg).buffer(true);
    expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(res.body.toString()).to.include(`>${config.siteName}<`).and.include('>up<');
  });
});
