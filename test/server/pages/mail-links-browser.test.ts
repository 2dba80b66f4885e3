/**
 * Mailed links in a real browser (docs/security.md, "Mail links"): a forgotten password reset from the emailed link, a sign-in by
 * link, and an address change confirmed from the new address; the mail is caught by a real local SMTP receiver.
 */
import { expect } from 'chai';
import { User } from '../../../shared/models/user.js';
import { useBrowser, WebPage } from '../../helpers/pages.js';
import { buildUser, PASSWORD } from '../../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../../helpers/mailbox.js';

describe('mailed links in a browser', function () {
  this.timeout(60_000);
  const box = useMailbox();
  const fixture = useBrowser({ web: () => ({ smtpUrl: box.smtp.url }) });

  /** Opens the sign-in page, follows its link to `href` and asks for a link to `email`. */
  async function askForLink(web: WebPage, href: string, email: string): Promise<void> {
    await web.goto('/signin/');
    await web.submit(`a[href="${href}"]`);
    await web.fill('#email', email);
    await web.submit('form.mail-request button[type=submit]');
    expect(await web.text('#link-sent')).to.contain(`If ${email} has an account, a link is on its way to it.`);
  }

  it('resets a forgotten password from the emailed link, then signs in with it', async () => {
    await buildUser('ann@example.org');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await askForLink(web, '/signin/reset/', 'ann@example.org');
    await web.goto(linkPathIn(await mailTo(box, 'ann@example.org', 'Reset')));
    await web.fill('#password', 'my new passphrase');
    await web.submit('form.reset button[type=submit]');
    expect(web.path()).to.equal('/projects/');
    expect(await web.text('p.notice')).to.contain('Your password has been changed');
    await web.submit('form[action="/signout/"] button');
    await web.signIn('ann@example.org', 'my new passphrase');
    expect(web.path()).to.equal('/projects/');
    expect(web.errors).to.deep.equal([]);
  });

  it('signs in by an emailed link', async () => {
    await buildUser('bob@example.org');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await askForLink(web, '/signin/link/', 'bob@example.org');
    await web.goto(linkPathIn(await mailTo(box, 'bob@example.org', 'sign-in')));
    expect(await web.text('#link-text')).to.equal('Sign in as bob@example.org?');
    await web.submit('form.link-confirm button[type=submit]');
    expect(web.path()).to.equal('/projects/');
    expect(await web.page.content()).to.contain('bob@example.org');
    expect(web.errors).to.deep.equal([]);
  });

  it('changes the address, confirmed from the new one', async () => {
    await buildUser('cat@example.org');
    const web = await WebPage.open(fixture.browser, fixture.origin);
    await web.goto('/account/');
    await web.signIn('cat@example.org', PASSWORD);
    expect(web.path()).to.equal('/account/');
    await web.fill('#new-email', 'cat@new.example');
    await web.fill('#email-password', PASSWORD);
    await web.submit('form.email-change button[type=submit]');
    expect(await web.text('p.notice')).to.contain('Until then your address stays cat@example.org.');
    await web.goto(linkPathIn(await mailTo(box, 'cat@new.example', 'Confirm')));
    await web.submit('form.link-confirm button[type=submit]');
    expect(await web.text('#account-email')).to.equal('cat@new.example');
    expect((await User.findOne({}).lean())?.email).to.equal('cat@new.example');
    expect(web.errors).to.deep.equal([]);
  });
});
