/** The mail the pages send, caught by a real local SMTP receiver (smtp-receiver.ts) started once per test file. */
import { startSmtp, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.js';
import { waitFor } from './poll.js';

/** The receiver of one test file; valid from its `before` hook on, emptied before each test. */
export interface Mailbox {
  smtp: SmtpReceiver;
}

/** Registers hooks that start the receiver before the file's tests, empty it before each, and close it after them. */
export function useMailbox(): Mailbox {
  const box = {} as Mailbox;
  before(async () => {
    box.smtp = await startSmtp();
  });
  beforeEach(() => {
    box.smtp.messages.length = 0;
  });
  after(() => box.smtp?.close());
  return box;
}

/** The first mail to `to` whose subject contains `subject`, waited for. @throws Error after 5 s without one. */
export function mailTo(box: Mailbox, to: string, subject = ''): Promise<ReceivedMail> {
  return waitFor(`a mail to ${to}`, () => Promise.resolve(box.smtp.messages.find((m) => m.to.includes(to) && (m.mail.subject ?? '').includes(subject))));
}

/** The path of the first link to this site in the mail's text part. @throws Error when it has none. */
export function linkPathIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.mail.text ?? '');
  if (!match) throw new Error(`no link in the mail "${mail.mail.subject ?? ''}"`);
  return new URL(match[0]).pathname;
}
