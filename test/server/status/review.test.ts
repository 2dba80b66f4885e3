/**
 * A security and correctness review of the public status pages (issue 33), probed from outside: each test reproduces a flaw found, on the real
 * app over HTTP, with a visitor whose cache was warm before the change.
 */
import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { waitFor } from '../../helpers/poll.js';
import { buildStatusPage, visitor } from './support.js';

/** Milliseconds a change may take to show: the stream is read twice a second (the cache's age limit is 15 s). */
const SHOWS_WITHIN_MS = 5_000;

describe('status pages under review', () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await buildProject();
  });

  it('takes down the pages of a deleted project within a few seconds, not after the cache’s age limit', async () => {
    await buildStatusPage(project, { Jobs: [[await buildCheck(project, { name: 'nightly' }), 'Nightly']] });
    const agent = visitor();
    expect((await agent.get('/status/acme/status.json')).status).to.equal(200);
    const user = await buildUser('owner@example.org');
    await join(project.project._id, user, 'owner');
    const owner = webAgent();
    await signIn(owner, user.email);
    const settings = `/projects/${project.project._id}/settings/`;
    const _csrf = csrfOf((await owner.get(settings)).text);
    expect((await owner.post(`/projects/${project.project._id}/delete`).type('form').send({ _csrf, confirm: project.project.name })).status).to.equal(303);
    await waitFor('the page gone', async () => (await agent.get('/status/acme/status.json')).status === 404, SHOWS_WITHIN_MS);
  });
});
