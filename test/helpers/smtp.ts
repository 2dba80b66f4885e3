/**
 * Talking SMTP to a listener under test: nodemailer for whole messages, and a
 * raw dialog for asserting exact reply lines (e.g. RCPT refusals).
 */
import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { startSmtpd, type SmtpdHandle } from '../../server/smtpd/listener.js';
import type { Clock } from '../../shared/clock.js';
import { testContext } from './hooks.js';

/** Domain of check addresses in tests. */
export const TEST_EMAIL_DOMAIN = 'ping.example.org';

/** Starts a listener on 127.0.0.1 and a free port, for TEST_EMAIL_DOMAIN. */
export async function startTestSmtpd(opts: { clock?: Clock; maxMessageBytes?: number } = {}): Promise<SmtpdHandle> {
  return startSmtpd({
    port: 0,
    host: '127.0.0.1',
    deps: { clock: opts.clock ?? (() => new Date()), queues: testContext().queues },
    domain: TEST_EMAIL_DOMAIN,
    maxMessageBytes: opts.maxMessageBytes,
  });
}

/**
 * Sends a message with nodemailer (no TLS).
 *
 * @param message - nodemailer message; `from`/`to` double as the envelope unless `envelope` is given.
 * @returns nodemailer's info, with `response` the final reply line.
 * @throws nodemailer's error, with `responseCode`, when the listener refuses.
 */
export async function sendMail(port: number, message: Mail.Options): Promise<{ response: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ from: 'cron@example.net', ...message });
  } finally {
    transport.close();
  }
}

/** Reads SMTP replies off a socket, one complete (possibly multi-line) reply at a time, lines joined by `\n`. */
function replyReader(socket: Socket): () => Promise<string> {
  let text = '';
  let waiting: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    waiting?.();
  });
  socket.on('close', () => waiting?.());
  socket.on('error', () => socket.destroy());
  return async () => {
    for (;;) {
      // The text after the last CRLF is an incomplete line.
      const lines = text.split('\r\n');
      const last = lines.slice(0, -1).findIndex((line) => /^\d{3} /.test(line));
      if (last >= 0) {
        text = lines.slice(last + 1).join('\r\n');
        return lines.slice(0, last + 1).join('\n');
      }
      if (socket.closed) throw new Error(`connection closed; unread: ${text}`);
      await new Promise<void>((resolve) => (waiting = resolve));
      waiting = null;
    }
  };
}

/** An open raw SMTP session. */
export interface SmtpSession {
  /** Sends one line (CRLF added) and resolves to its reply. */
  command(line: string): Promise<string>;
  /** Sends QUIT, reads the reply, and closes the socket. */
  quit(): Promise<void>;
  /** Closes the socket at once. */
  destroy(): void;
}

/**
 * Connects and reads the greeting.
 *
 * @throws Error when the connection is refused or closed before the greeting.
 */
export async function openSmtp(port: number): Promise<SmtpSession> {
  const socket = connect(port, '127.0.0.1');
  const readReply = replyReader(socket);
  try {
    await readReply();
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return {
    async command(line) {
      socket.write(`${line}\r\n`);
      return readReply();
    },
    async quit() {
      socket.write('QUIT\r\n');
      await readReply().finally(() => socket.destroy());
    },
    destroy() {
      socket.destroy();
    },
  };
}

/**
 * Runs a raw SMTP dialog: reads the greeting, then sends each command and
 * reads its reply, then QUITs.
 *
 * @param commands - Lines without CRLF; a DATA payload is one entry ending in `\r\n.`.
 * @returns Each reply, greeting excluded, e.g. `550 5.1.1 Invalid mailbox`; the lines of a
 *   multi-line reply (EHLO) are joined by `\n`.
 */
export async function smtpDialog(port: number, commands: string[]): Promise<string[]> {
  const session = await openSmtp(port);
  try {
    const replies: string[] = [];
    for (const command of commands) replies.push(await session.command(command));
    await session.quit();
    return replies;
  } finally {
    session.destroy();
  }
}
