import { expect } from 'chai';
import { htmlToPlainText, parseMessage } from '../../../server/smtpd/message.js';

function raw(lines: string[]): Buffer {
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

const MULTIPART = raw([
  'From: cron@example.net',
  'Subject: nightly',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Plain part',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>HTML <b>part</b></p>',
  '--b1--',
  '',
]);

describe('server/smtpd/message', () => {
  describe('htmlToPlainText', () => {
    it('strips tags and collapses whitespace', () => {
      expect(htmlToPlainText('<div>\n  Backup\n\n <b>done</b>  </div>')).to.equal('Backup done');
    });

    it('skips script and style content', () => {
      expect(htmlToPlainText('<style>p{}</style><script>"FAIL"</script><p>OK</p>')).to.equal('OK');
    });

    it('keeps heading case and leaves out link targets and images', () => {
      const html = '<h1>Backup ok</h1><a href="https://x.test/FAIL">log</a><img alt="FAIL" src="x.png">';
      expect(htmlToPlainText(html)).to.equal('Backup ok log');
    });

    it('decodes entities', () => {
      expect(htmlToPlainText('<p>A &amp; B&nbsp;&eacute;</p>')).to.equal('A & B é');
    });
  });

  describe('parseMessage', () => {
    it('decodes an RFC 2047 encoded subject', async () => {
      const mail = await parseMessage(raw(['Subject: =?UTF-8?B?U2F1dmVnYXJkZSByw6l1c3NpZQ==?=', '', 'x']));
      expect(mail.subject).to.equal('Sauvegarde réussie');
    });

    it('reads the plain part and the HTML part of a multipart/alternative message', async () => {
      const mail = await parseMessage(MULTIPART);
      expect([mail.text?.trim(), mail.htmlText]).to.deep.equal(['Plain part', 'HTML part']);
    });

    it('decodes a quoted-printable latin-1 body', async () => {
      const body = ['Subject: x', 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable'];
      const mail = await parseMessage(raw([...body, '', 'r=E9ussi']));
      expect(mail.text?.trim()).to.equal('réussi');
    });

    it('gives no HTML text for a plain message, and no plain text for an HTML-only one', async () => {
      const plain = await parseMessage(raw(['Subject: x', '', 'hello']));
      const html = await parseMessage(raw(['Subject: x', 'Content-Type: text/html', '', '<p>hello</p>']));
      expect([plain.htmlText, html.text ?? null, html.htmlText]).to.deep.equal([null, null, 'hello']);
    });

    it('gives an empty subject when the header is missing', async () => {
      expect((await parseMessage(raw(['From: a@b.c', '', 'hello']))).subject).to.equal('');
    });
  });
});
