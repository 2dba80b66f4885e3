/** The words of an alert, shared by every provider. */
import type { CheckDoc } from '../models/check.js';
import type { FlipDoc } from '../models/flip.js';
import type { OutboxFlip } from '../models/check.js';
import type { Alert } from './types.js';

/** The alert of one flip into `up` or `down`; `id` is the notification's (unique per flip and channel). */
export function alertOf(
  id: string,
  check: Pick<CheckDoc, '_id' | 'projectId' | 'name' | 'tags' | 'desc' | 'lastPing'>,
  flip: Pick<FlipDoc, 'newStatus' | 'reason' | 'created'> & Partial<Pick<OutboxFlip, 'event' | 'n'>>,
  baseUrl: string,
): Alert {
  return {
    ...(flip.event ? { event: flip.event } : {}),
    ...(flip.n ? { reminder: flip.n } : {}),
    id,
    checkId: check._id,
    name: check.name,
    tags: check.tags,
    desc: check.desc,
    status: flip.newStatus === 'up' ? 'up' : 'down',
    reason: flip.reason,
    at: flip.created,
    lastPing: check.lastPing,
    detailsUrl: checkPageUrl(baseUrl, check.projectId, check._id),
    updateUrl: `${baseUrl}/api/v3/checks/${check._id}`,
  };
}

/** The check's page in the web app (server/pages/checks/checks.ts), where an alert's link leads; signed-out people sign in first and land there. */
export function checkPageUrl(baseUrl: string, projectId: string, checkId: string): string {
  return `${baseUrl}/projects/${projectId}/checks/${checkId}/`;
}

/** ISO 8601 truncated to whole seconds with a `+00:00` offset, as the API writes times (docs/api-reference.md, "Times"). */
export function isoSeconds(at: Date): string {
  return `${at.toISOString().slice(0, 19)}+00:00`;
}

/** The check's name, or its UUID when the name is empty. */
export function labelOf(alert: Alert): string {
  return alert.name || alert.checkId;
}

/** The status an alert announces, upper case: `UP`, `DOWN`, or `LATE` for a late warning. */
export function statusWordOf(alert: Alert): string {
  return alert.event === 'late' ? 'LATE' : alert.status.toUpperCase();
}

/** What a timed rule's alert adds to its title: ` (reminder 2)`, ` (maintenance ended)`; `''` for a flip's alert or a late warning. */
export function eventSuffixOf(alert: Alert): string {
  if (alert.event === 'reminder') return ` (reminder ${alert.reminder ?? 1})`;
  return alert.event === 'resumed' ? ' (maintenance ended)' : '';
}

/** `"backup" is DOWN`; `"backup" is LATE`; `"backup" is DOWN (reminder 2)`. */
export function titleOf(alert: Alert): string {
  return `"${labelOf(alert)}" is ${statusWordOf(alert)}${eventSuffixOf(alert)}`;
}

/** Why the check flipped, in words. */
export function causeOf(alert: Alert): string {
  if (alert.event === 'late') return 'the expected ping is late: the check is in its grace period';
  if (alert.event === 'reminder') return 'the check is still down';
  if (alert.event === 'resumed') return 'the check is still down after its maintenance window';
  if (alert.reason === 'timeout') return 'the expected ping did not arrive in time';
  if (alert.reason === 'fail') return 'a failure signal was received';
  return alert.status === 'up' ? 'a success signal was received' : 'the check failed';
}

/** ` (the expected ping did not arrive in time)`: the cause in parentheses, or `''` when the flip has no reason. */
export function reasonSuffixOf(alert: Alert): string {
  return alert.reason ? ` (${causeOf(alert)})` : '';
}

/** `backup is DOWN (the expected ping did not arrive in time)`: the name unquoted, then {@link reasonSuffixOf}. */
export function headlineOf(alert: Alert): string {
  return `${labelOf(alert)} is ${statusWordOf(alert)}${eventSuffixOf(alert)}${reasonSuffixOf(alert)}`;
}

/** When the check last pinged, or `never`. */
export function lastPingOf(alert: Alert): string {
  return alert.lastPing ? isoSeconds(alert.lastPing) : 'never';
}

/** Label and value pairs that chat cards show as fields. */
export function factsOf(alert: Alert): Array<[string, string]> {
  const facts: Array<[string, string]> = [
    ['Status', statusWordOf(alert)],
    ['Cause', causeOf(alert)],
    ['Last ping', lastPingOf(alert)],
  ];
  if (alert.tags.trim()) facts.push(['Tags', alert.tags.trim()]);
  if (alert.desc) facts.push(['Description', alert.desc]);
  return facts;
}

/** The plain-text message: title line, facts, details link. */
export function textOf(alert: Alert): string {
  const lines = [`The check ${titleOf(alert)}: ${causeOf(alert)}.`, `Last ping: ${lastPingOf(alert)}.`];
  if (alert.tags.trim()) lines.push(`Tags: ${alert.tags.trim()}`);
  if (alert.desc) lines.push(`Description: ${alert.desc}`);
  lines.push(`Details: ${alert.detailsUrl}`);
  return lines.join('\n');
}

/** The alert as JSON: a plain-URL webhook's body and `$JSON` in webhook templates; times as in the API. */
export function alertJson(alert: Alert): Record<string, unknown> {
  return {
    uuid: alert.checkId,
    name: alert.name,
    tags: alert.tags,
    desc: alert.desc,
    status: alert.event === 'late' ? 'late' : alert.status,
    reason: alert.reason,
    ...(alert.event ? { event: alert.event } : {}),
    ...(alert.reminder ? { reminder: alert.reminder } : {}),
    timestamp: isoSeconds(alert.at),
    last_ping: alert.lastPing ? isoSeconds(alert.lastPing) : null,
    update_url: alert.updateUrl,
  };
}

/** Escapes `&`, `<`, `>` and `"` for HTML message formats. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
