/** The pages' mail (shared/mail.ts, sent by the account and members pages): through the relay WebOptions name, text and HTML parts, typed values escaped. */
import { expect } from 'chai';
import { buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { mailTo, useMailbox } from '../../helpers/mailbox.js';

describe('account mail', () => {
  const box = useMailbox();

  it('sends an invitation from DEFAULT_FROM_EMAIL with the project name escaped in the HTML part', async () => {
    const { project } = await buildProject({ name: '<b>Ops</b> & "friends"' });
    await join(project._id, await buildUser('own@example.org'), 'owner');
    const owner = webAgent({ smtpUrl: box.smtp.url, fromEmail: 'hc@example.org' });
    await signIn(owner, 'own@example.org');
    const _csrf = csrfOf((await owner.get(`/projects/${project._id}/members/`)).text);
    await owner.post(`/projects/${project._id}/members/invite`).type('form').send({ _csrf, email: 'bob@example.org', role: 'ro' });
    const mail = await mailTo(box, 'bob@example.org');
    expect(mail.from).to.equal('hc@example.org');
    expect(mail.mail.text).to.contain('You are invited to the project "<b>Ops</b> & "friends""');
    expect(mail.mail.html).to.contain('&lt;b&gt;Ops&lt;/b&gt; &amp; &quot;friends&quot;').and.not.contain('<b>Ops');
  });
});
