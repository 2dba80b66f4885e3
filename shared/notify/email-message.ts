/**
 * The words of an email alert (docs/alerts.md, "What an alert says"): a text part and an HTML part carrying the project's
 * name, the tags, the schedule in human units, the last ping's time and body (about 1 KB of it, escaped; a body that is not
 * UTF-8 is said to be binary) and the link to the check's page. Everything a job or a person sent is escaped in the HTML.
 */
import { humanPeriod } from '../domain/periods.js';
import { Check, type CheckDoc } from '../models/check.js';
import { Ping } from '../models/ping.js';
import { Project, type ProjectDoc } from '../models/project.js';
import { causeOf, escapeHtml, isoSeconds, lastPingOf, titleOf } from './message.js';
import type { Alert } from './types.js';

/** Characters of a ping's body an email shows; the rest is cut. */
export const BODY_SHOWN_CHARS = 1024;

/** What an email adds to the alert, read when it is sent; each null when it cannot be read (a deleted check, a test alert). */
export interface EmailDetails {
  projectName: string | null;
  /** `every 1 day, grace 1 hour`; `cron "0 3 * * *" (Europe/Riga), grace 1 hour`. */
  schedule: string | null;
  /** The newest ping of the check, with its body in words. */
  lastPing: { at: Date; kind: string; body: string } | null;
}

/** The schedule in human units (periods in seconds become "1 day"). */
export function scheduleWords(check: Pick<CheckDoc, 'kind' | 'timeout' | 'grace' | 'schedule' | 'tz'>): string {
  const grace = `grace ${humanPeriod(check.grace)}`;
  if (check.kind === 'simple') return `every ${humanPeriod(check.timeout)}, ${grace}`;
  return `${check.kind === 'cron' ? 'cron' : 'OnCalendar'} "${check.schedule}" (${check.tz}), ${grace}`;
}

/** A ping's body as text: `(no body)`, the binary's size, or its first {@link BODY_SHOWN_CHARS} characters. */
export function bodyWords(body: Buffer | null): string {
  if (!body || body.length === 0) return '(no body)';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return `(binary body, ${body.length} bytes: not shown)`;
  }
  return text.length <= BODY_SHOWN_CHARS ? text : `${text.slice(0, BODY_SHOWN_CHARS)}\n… (${body.length} bytes in all; the rest is cut)`;
}

/**
 * Reads the project, schedule and newest ping of the alert's check, at once (the attempt's timeout runs meanwhile).
 *
 * @param projectId - The sending channel's project, which is the check's; undefined when the channel is not stored
 *   (the check's project is then read after it).
 */
export async function emailDetailsOf(alert: Alert, projectId: string | undefined): Promise<EmailDetails> {
  const [check, project, ping] = await Promise.all([
    Check.findById(alert.checkId, { projectId: 1, kind: 1, timeout: 1, grace: 1, schedule: 1, tz: 1 }).lean<CheckDoc>(),
    projectId ? Project.findById(projectId, { name: 1 }).lean<ProjectDoc>() : null,
    // Not lean: Mongoose gives the body as a Buffer (lean gives BSON's Binary).
    Ping.findOne({ checkId: alert.checkId }, { created: 1, kind: 1, body: 1 }).sort({ n: -1 }),
  ]);
  if (!check) return { projectName: null, schedule: null, lastPing: null };
  const owner = project ?? (projectId ? null : await Project.findById(check.projectId, { name: 1 }).lean<ProjectDoc>());
  const body = ping?.body ? Buffer.from(ping.body) : null;
  return {
    projectName: owner ? owner.name || 'Unnamed project' : null,
    schedule: scheduleWords(check),
    lastPing: ping ? { at: ping.created, kind: ping.kind, body: bodyWords(body) } : null,
  };
}

/** Label and value lines of the message, in order; absent values left out. */
function factsOf(alert: Alert, details: EmailDetails): Array<[string, string]> {
  const facts: Array<[string | null, string]> = [
    [details.projectName === null ? null : 'Project', details.projectName ?? ''],
    [alert.tags.trim() ? 'Tags' : null, alert.tags.trim()],
    [details.schedule === null ? null : 'Schedule', details.schedule ?? ''],
    [alert.desc ? 'Description' : null, alert.desc],
  ];
  return facts.filter((fact): fact is [string, string] => fact[0] !== null);
}

/**
 * The text and HTML parts of the alert to one address.
 *
 * @param unsubscribe - The address's one-click unsubscribe link, when the channel is stored.
 */
export function emailParts(alert: Alert, details: EmailDetails, unsubscribe: string | undefined): { text: string; html: string } {
  const facts = factsOf(alert, details);
  const ping = details.lastPing;
  const pingLine = ping ? `Body of the last ping (${ping.kind}, ${isoSeconds(ping.at)}):` : null;
  const text = [
    `The check ${titleOf(alert)}: ${causeOf(alert)}.`,
    `Last ping: ${lastPingOf(alert)}.`,
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(ping && pingLine ? ['', pingLine, ping.body, ''] : []),
    `Details: ${alert.detailsUrl}`,
    ...(unsubscribe ? ['', `Stop these alerts to this address: ${unsubscribe}`, ''] : []),
  ].join('\n');
  const rows = [['Last ping', lastPingOf(alert)], ...facts].map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
  const html = [
    '<!doctype html><html><body>',
    `<p><strong>The check ${escapeHtml(titleOf(alert))}</strong>: ${escapeHtml(causeOf(alert))}.</p>`,
    `<table>${rows.join('')}</table>`,
    ping && pingLine ? `<p>${escapeHtml(pingLine)}</p><pre>${escapeHtml(ping.body)}</pre>` : '',
    `<p><a href="${escapeHtml(alert.detailsUrl)}">Open the check</a></p>`,
    unsubscribe ? `<p><a href="${escapeHtml(unsubscribe)}">Stop these alerts to this address</a></p>` : '',
    '</body></html>',
  ].join('\n');
  return { text, html };
}
