/**
 * An alert's link in a real browser (docs/alerts.md, "What an alert says"): the link of a real email alert, opened
 * signed out, goes to the sign-in page, and signing in lands on the check's page.
 */
import { expect } from 'chai';
import { deliver } from '../../../shared/notify/deliver.js';
import { alertOf } from '../../../shared/notify/message.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { testNotifyConfig } from '../../helpers/alerts.js';
import { startSmtp } from '../../helpers/smtp-receiver.js';
import { seriousFindings } from '../../helpers/axe.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';
import { buildUser, join, PASSWORD } from '../../helpers/web.js';

describe("an alert's link in a browser", function () {
  this.timeout(120_000);
  const fixture = useBrowser();

  it('leads a signed-out member through the sign-in page to the check', async () => {
    const built = await buildProject({ name: 'Alerts' });
    const check = await buildCheck(built, { name: 'nightly backup' });
    await join(built.project._id, await buildUser('member@example.org'), 'ro');
    const smtp = await startSmtp();
    try {
      const flip = { newStatus: 'down' as const, reason: 'timeout' as const, created: new Date() };
      await deliver({ kind: 'email', value: 'member@example.org' }, alertOf('a1', check, flip, fixture.origin), testNotifyConfig('', { smtpUrl: smtp.url, baseUrl: fixture.origin }));
    } finally {
      await smtp.close();
    }
    const link = /^Details: (\S+)$/m.exec(smtp.messages[0]?.mail.text ?? '')?.[1] ?? expect.fail('no Details link in the mail');
    expect(link).to.equal(`${fixture.origin}/projects/${built.project._id}/checks/${check._id}/`);

    const web = await WebPage.open(fixture.browser, fixture.origin);
    await web.page.goto(link);
    expect(web.path()).to.equal('/signin/');
    await web.signIn('member@example.org', PASSWORD);
    expect(web.page.url()).to.equal(link);
    expect(await web.text('h1')).to.contain('nightly backup');
    expect(await seriousFindings(web.page), 'the check page').to.deep.equal([]);
    expect(web.errors, 'script errors on the pages').to.deep.equal([]);
  });
});
