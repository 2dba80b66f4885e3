import { expect } from 'chai';
import { buildCheck, buildProject, http, type TestProject } from '../../../helpers/factories.js';
import { storedCheck, storedFlips, storedPings } from '../../../helpers/pings.js';

describe('ANY /ping/<uuid> under concurrency', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('gives 20 simultaneous pings the numbers 1..20, each exactly once', async () => {
    const check = await buildCheck(project);
    const agent = http();
    const results = await Promise.all(Array.from({ length: 20 }, () => agent.get(`/ping/${check._id}`)));
    expect(results.every((r) => r.status === 200)).to.equal(true);
    const numbers = (await storedPings(check._id)).map((p) => p.n);
    expect(numbers).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await storedCheck(check._id)).nPings).to.equal(20);
  });

  it('records the single new→up flip once when simultaneous pings race', async () => {
    const check = await buildCheck(project);
    const agent = http();
    await Promise.all(Array.from({ length: 10 }, () => agent.get(`/ping/${check._id}`)));
    const flips = await storedFlips(check._id);
    expect(flips.map((f) => [f.oldStatus, f.newStatus])).to.deep.equal([['new', 'up']]);
  });

  it('applies mixed simultaneous signals in n order, with one flip per status change', async () => {
    const check = await buildCheck(project);
    const agent = http();
    const paths = Array.from({ length: 12 }, (_, i) => (i % 2 ? `/ping/${check._id}/fail` : `/ping/${check._id}`));
    await Promise.all(paths.map((p) => agent.get(p)));
    const pings = await storedPings(check._id);
    expect(pings).to.have.length(12);
    const statuses = pings.map((p) => (p.kind === 'fail' ? 'down' : 'up'));
    const changes = statuses.filter((s, i) => s !== (i === 0 ? 'new' : statuses[i - 1]));
    expect((await storedCheck(check._id)).status).to.equal(statuses[statuses.length - 1]);
    expect((await storedFlips(check._id)).map((f) => f.newStatus).sort()).to.deep.equal(changes.sort());
  });
});
