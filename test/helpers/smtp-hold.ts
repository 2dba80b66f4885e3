/**
 * A local SMTP server (smtp-server) that holds back its reply to the first message's DATA until the sender goes away: the sender is then "mid-send"
 * for as long as a test needs, and a message whose connection closed before the reply is not received (SMTP: no 250, no delivery). Every later
 * message is accepted at once.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { ReceivedMail } from './smtp-receiver.js';

/** A running holding receiver. */
export interface HoldingSmtp {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Messages accepted (the held one is never among them). */
  messages: ReceivedMail[];
  /** The envelope sender of the held message, once it arrived (tests give each sender its own address). */
  heldFrom(): string | null;
  close(): Promise<void>;
}

/** Starts the receiver (no TLS, no authentication). */
export async function startHoldingSmtp(): Promise<HoldingSmtp> {
  const messages: ReceivedMail[] = [];
  let held: string | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      void simpleParser(stream).then((mail) => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        // The held reply's callback is dropped: the connection closing ends the session without a delivery.
        if (held === null) {
          held = from;
          return;
        }
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
    heldFrom: () => held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
