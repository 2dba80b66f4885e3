/** `hc-admin user create` and `hc-admin project add-member` (scripts/admin/user.ts, project.ts). */
import { expect } from 'chai';
import { authenticate } from '../../../shared/services/users.js';
import { roleOf } from '../../../shared/services/members.js';
import { config } from '../../../shared/config.js';
import { buildProject } from '../../helpers/factories.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

describe('hc-admin user create', () => {
  it('generates a password, prints it once with where to sign in, and it signs in', async () => {
    const result = await runCli(['user', 'create', '--email', 'Ann@Example.org']);
    expect(result.code, result.stderr).to.equal(0);
    const printed = jsonOf(result) as { id: string; email: string; password: string; sign_in_url: string };
    expect(Object.keys(printed)).to.have.members(['id', 'email', 'password', 'sign_in_url']);
    expect(printed.email).to.equal('ann@example.org');
    expect(printed.sign_in_url).to.equal(`${config.baseUrl}/signin/`);
    expect(printed.password).to.match(/^[A-Za-z0-9_-]{20}$/);
    expect((await authenticate('ann@example.org', printed.password))?._id).to.equal(printed.id);
  });

  it('reads the password from standard input with --password-stdin, and never prints it', async () => {
    const result = await runCli(['user', 'create', '--email', 'ann@example.org', '--password-stdin'], {}, 'a long secret phrase\n');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout + result.stderr).not.to.contain('a long secret phrase');
    expect(Object.keys(jsonOf(result) as object)).to.have.members(['id', 'email', 'sign_in_url']);
    expect(await authenticate('ann@example.org', 'a long secret phrase')).not.to.equal(null);
  });

  it('refuses a short password, a bad address and an address in use, with one line and no user', async () => {
    const short = await runCli(['user', 'create', '--email', 'ann@example.org', '--password-stdin'], {}, 'short\n');
    expect([short.code, stderrLines(short)]).to.deep.equal([2, ['hc-admin: a password has at least 8 characters']]);
    const bad = await runCli(['user', 'create', '--email', 'not-an-address']);
    expect([bad.code, stderrLines(bad)]).to.deep.equal([2, ['hc-admin: enter a valid email address']]);
    expect((await runCli(['user', 'create', '--email', 'ann@example.org'])).code).to.equal(0);
    const again = await runCli(['user', 'create', '--email', 'ann@example.org']);
    expect([again.code, stderrLines(again)]).to.deep.equal([1, ['hc-admin: a user with this email address already exists']]);
  });
});

describe('hc-admin project add-member', () => {
  it('gives an existing project its owner', async () => {
    const { project } = await buildProject();
    const user = jsonOf(await runCli(['user', 'create', '--email', 'ann@example.org'])) as { id: string };
    const result = await runCli(['project', 'add-member', '--project', project._id, '--email', 'ann@example.org']);
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonOf(result)).to.deep.equal({ project: project._id, email: 'ann@example.org', role: 'owner' });
    expect(await roleOf(project._id, user.id)).to.equal('owner');
  });

  it('refuses an unknown user or project and a role that does not exist', async () => {
    const { project } = await buildProject();
    const noUser = await runCli(['project', 'add-member', '--project', project._id, '--email', 'x@example.org']);
    expect([noUser.code, stderrLines(noUser)]).to.deep.equal([1, ['hc-admin: no user with email x@example.org (create one with hc-admin user create)']]);
    const badRole = await runCli(['project', 'add-member', '--project', project._id, '--email', 'x@example.org', '--role', 'admin']);
    expect(badRole.code).to.equal(2);
  });
});
