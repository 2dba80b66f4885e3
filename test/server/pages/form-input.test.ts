/** Form bodies the pages refuse with a 4xx page, never a 500 (docs/security.md): over 64 KB, or with a NUL character. */
import { expect } from 'chai';
import { Project } from '../../../shared/models/project.js';
import { buildUser, csrfOf, signIn, webAgent } from '../../helpers/web.js';

describe('pages: form bodies refused', () => {
  it('answers a form over 64 KB with a 413 page, signed in or not', async () => {
    const anonymous = await webAgent().post('/signin/').type('form').send({ email: 'a@example.org', password: 'x'.repeat(70_000) });
    expect(anonymous.status).to.equal(413);
    expect(anonymous.text).to.contain('This form is too large (over 64 KB)');
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/projects/')).text);
    const res = await agent.post('/projects/').type('form').send({ _csrf, name: 'x'.repeat(70_000) });
    expect(res.status).to.equal(413);
    expect(await Project.countDocuments()).to.equal(0);
  });

  it('answers a NUL character in any field with a 400 page and changes nothing', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/projects/')).text);
    const res = await agent.post('/projects/').type('form').send({ _csrf, name: 'backups\u0000' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('The field “name” contains a NUL character, which no field takes.');
    expect(await Project.countDocuments()).to.equal(0);
    const signInWithNul = await webAgent().post('/signin/').type('form').send({ email: 'ann@example.org\u0000', password: 'x' });
    expect(signInWithNul.status).to.equal(400);
  });
});
