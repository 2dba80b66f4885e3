/** The SMTP listener (docs/email-pings.md): recipients checked at RCPT; 250 only once the message's pings are stored. */
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { parseRecipient, type EmailTarget } from '../../shared/domain/email.js';
import type { PingDeps } from '../../shared/pings/record.js';
import { config } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';
import { deliverMessage } from './deliver.js';

const log = logger.child({ module: 'smtpd' });

/** Milliseconds `close()` lets SMTP sessions finish, leaving room in the 10 s SIGTERM budget for DB and Redis. */
const CLOSE_TIMEOUT_MS = 5000;

/** Options of {@link startSmtpd}. */
export interface SmtpdOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Bind address, e.g. `0.0.0.0` or `127.0.0.1`. */
  host: string;
  /** Clock and queues, as for HTTP pings. */
  deps: PingDeps;
  /** Domain of check addresses, lowercase; default config `pingEmailDomain`. */
  domain?: string;
  /** Largest accepted message in bytes (552 above it); default config `smtpMaxMessageBytes`. */
  maxMessageBytes?: number;
}

/** A running listener. */
export interface SmtpdHandle {
  /** The port actually bound. */
  port: number;
  /** Stops accepting, lets sessions finish (at most 5 s), then waits for messages being stored. Idempotent. */
  close(): Promise<void>;
}

/** A refusal; smtp-server sends `responseCode` and the message as the reply. */
class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    text: string,
  ) {
    super(text);
    this.name = 'SmtpReply';
  }
}

function acceptedTargets(session: SMTPServerSession, domain: string): EmailTarget[] {
  return session.envelope.rcptTo
    .map((rcpt) => parseRecipient(rcpt.address, domain))
    .filter((target): target is EmailTarget => typeof target !== 'string');
}

/** Reads the DATA stream, keeping no more than `limitBytes` (the rest is drained, then refused). */
async function readMessage(stream: SMTPServerDataStream, limitBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes <= limitBytes) chunks.push(chunk);
  }
  return stream.sizeExceeded || bytes > limitBytes ? null : Buffer.concat(chunks, bytes);
}

/**
 * Starts the listener, resolving once listening. No AUTH or STARTTLS: it takes mail for its own domain only (put a
 * relay in front for TLS). @throws the listen error, e.g. EADDRINUSE.
 */
export async function startSmtpd(options: SmtpdOptions): Promise<SmtpdHandle> {
  const domain = options.domain ?? config.pingEmailDomain;
  const maxMessageBytes = options.maxMessageBytes ?? config.smtpMaxMessageBytes;
  const inFlight = new Set<Promise<unknown>>();

  /** Reads and stores one message; resolves to the 250 reply text. */
  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const raw = await readMessage(stream, maxMessageBytes);
    if (!raw) throw new SmtpReply(552, '5.3.4 Message size exceeds fixed maximum message size');
    const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const recipients = acceptedTargets(session, domain);
    const pings = await deliverMessage(options.deps, { raw, sender, remoteAddr: session.remoteAddress, recipients });
    log.info({ sender, recipients: recipients.length, pings, bytes: raw.length }, 'email received');
    return '2.6.0 Message accepted';
  }

  const server = new SMTPServer({
    name: domain,
    size: maxMessageBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // The client's host name is never used, and a PTR lookup would delay every greeting (docs/notes.md).
    disableReverseLookup: true,
    logger: false,
    closeTimeout: CLOSE_TIMEOUT_MS,
    onRcptTo(address, _session, callback) {
      const target = parseRecipient(address.address, domain);
      callback(typeof target === 'string' ? new SmtpReply(550, target) : null);
    },
    onData(stream, session, callback) {
      const work = receive(stream, session).then(
        (reply) => callback(null, reply),
        (err: unknown) => {
          if (err instanceof SmtpReply) return callback(err);
          log.error({ err }, 'cannot store email pings');
          callback(new SmtpReply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    },
  });
  server.on('error', (err: Error) => log.error({ err }, 'smtp server error'));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  log.info({ host: options.host, port, domain }, 'smtpd listening');

  let closing: Promise<void> | null = null;
  return {
    port,
    close(): Promise<void> {
      closing ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.allSettled([...inFlight]);
      })();
      return closing;
    },
  };
}
