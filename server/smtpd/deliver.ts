/** An accepted message into pings, each recipient on its own, through `recordPings` (docs/email-pings.md, "Addresses"). */
import { Types } from 'mongoose';
import { recordPings, type PingDeps } from '../../shared/pings/record.js';
import { classifyEmail, type EmailContent, type EmailTarget } from '../../shared/domain/email.js';
import { findRecipientCheck } from './recipients.js';
import { parseMessage } from './message.js';
import { logger } from '../../shared/logger.js';

const log = logger.child({ module: 'smtpd' });

/** Characters of `ua` kept, as for HTTP pings (docs/pinging.md, "What a ping records"). */
const UA_MAX_CHARS = 200;

/** A message as accepted by the listener. */
export interface InboundMessage {
  /** The whole message as received after DATA; stored as the ping body, uncut. */
  raw: Buffer;
  /** Envelope sender (MAIL FROM); `""` for the null sender `<>`. */
  sender: string;
  /** IP address of the SMTP peer. */
  remoteAddr: string | null;
  /** The accepted recipients, in RCPT order. */
  recipients: EmailTarget[];
}

/**
 * Records one ping per recipient whose check exists (unknown and ambiguous ones skipped), parsing the message once
 * and only if a check was found; returns the number recorded.
 * @throws the MongoDB error when a ping cannot be stored (the listener answers 451 so the sender retries).
 */
export async function deliverMessage(deps: PingDeps, message: InboundMessage): Promise<number> {
  const ua = `Email from ${message.sender}`.slice(0, UA_MAX_CHARS);
  let content: EmailContent | null = null;
  let recorded = 0;
  for (const target of message.recipients) {
    const check = await findRecipientCheck(target);
    if (!check) {
      // The mailbox is a check UUID or a project's ping key: never logged.
      log.info({ kind: target.kind }, 'no check for recipient; skipped');
      continue;
    }
    content ??= await parseMessage(message.raw);
    const parsed = content;
    const meta = {
      _id: new Types.ObjectId(),
      scheme: 'email',
      method: '',
      ua,
      remoteAddr: message.remoteAddr,
      body: message.raw,
      exitStatus: null,
      rid: null,
    };
    const [n] = await recordPings(deps, [{ checkId: check._id, resolve: (current) => classifyEmail(current, parsed), meta }]);
    if (n !== null) recorded++;
  }
  return recorded;
}
