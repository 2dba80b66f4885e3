/**
 * Service mail (invitations, account links, email channels' confirmations) through a relay (SMTP_URL, from
 * DEFAULT_FROM_EMAIL): a text part and an HTML part rendered by Eta with every value escaped.
 */
import { Eta } from 'eta';
import nodemailer from 'nodemailer';

/** Longest a mail may take, milliseconds. */
const MAIL_TIMEOUT_MS = 10_000;

const HTML = `<!doctype html>
<html lang="en">
<body style="font-family: sans-serif; line-height: 1.5">
<% it.paragraphs.forEach(function (paragraph) { %><p><%= paragraph %></p>
<% }) %>
<% if (it.link) { %><p><a href="<%= it.link.href %>" style="font-weight: bold"><%= it.link.label %></a></p>
<p style="color: #555">Or copy this address into your browser: <%= it.link.href %></p><% } %>
</body>
</html>
`;
const eta = new Eta({ autoEscape: true });

/** Where mail goes out and whom it is from. */
export interface MailRelay {
  /** smtp:// or smtps:// URL. */
  smtpUrl: string;
  fromEmail: string;
}

/** One mail: paragraphs of plain text, and the link it is about. */
export interface ServiceMail {
  to: string;
  subject: string;
  paragraphs: string[];
  /** Shown as a link in the HTML part and as the bare URL in the text part. */
  link?: { href: string; label: string };
  /** Extra headers (e.g. List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** The text and HTML parts of a mail. */
function mailParts(mail: Pick<ServiceMail, 'paragraphs' | 'link'>): { text: string; html: string } {
  const text = [...mail.paragraphs, ...(mail.link ? [`${mail.link.label}:\n${mail.link.href}`] : [])].join('\n\n') + '\n';
  return { text, html: eta.renderString(HTML, { link: undefined, ...mail }) };
}

/**
 * Sends the mail.
 * @throws the relay's error (nodemailer's) when it is refused or cannot be reached within 10 s.
 */
export async function sendServiceMail(relay: MailRelay, mail: ServiceMail): Promise<void> {
  await sendRenderedMail(relay, { to: mail.to, subject: mail.subject, headers: mail.headers, ...mailParts(mail) });
}

/** A mail whose text and HTML parts the caller rendered (every value escaped in the HTML). */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/**
 * Sends a mail rendered elsewhere (the email reports, shared/reports/).
 * @throws the relay's error (nodemailer's) when it is refused or cannot be reached within 10 s.
 */
export async function sendRenderedMail(relay: MailRelay, mail: RenderedMail): Promise<void> {
  const transport = nodemailer.createTransport({
    url: relay.smtpUrl,
    connectionTimeout: MAIL_TIMEOUT_MS,
    greetingTimeout: MAIL_TIMEOUT_MS,
    socketTimeout: MAIL_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: relay.fromEmail, ...mail });
  } finally {
    transport.close();
  }
}
