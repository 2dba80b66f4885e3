/**
 * A local SMTP server (smtp-server) on 127.0.0.1 that parses every message
 * it accepts (mailparser).
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as received: the SMTP envelope and the parsed mail. */
export interface ReceivedMail {
  to: string[];
  from: string;
  mail: ParsedMail;
}

/** A running SMTP receiver. */
export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * Starts an SMTP receiver (no TLS, no authentication).
 *
 * @param rejectWith - SMTP reply code to refuse every message with (e.g. 550), or none.
 */
export async function startSmtp(rejectWith?: number): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!rejectWith) return callback();
      callback(Object.assign(new Error('mailbox unavailable'), { responseCode: rejectWith }));
    },
    onData(stream, session, callback) {
      void simpleParser(stream).then((mail) => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), from, mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
