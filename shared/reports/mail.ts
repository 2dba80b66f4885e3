/**
 * The report and reminder mails (docs/reports.md): a text part and an HTML part rendered by Eta with every value escaped (check and project names
 * come from people), a link to each project, and the unsubscribe link in the body and in List-Unsubscribe (RFC 8058 one-click).
 */
import { Eta } from 'eta';
import moment from 'moment-timezone';
import type { RenderedMail } from '../mail.js';
import type { Period } from '../domain/report-period.js';
import type { DownLine, ProjectSection, ReportLine } from './content.js';

const eta = new Eta({ autoEscape: true });

const REPORT_HTML = `<!doctype html>
<html lang="en">
<body style="font-family: sans-serif; line-height: 1.5">
<p><%= it.intro %></p>
<% for (const p of it.sections) { %>
<h2 style="font-size: 1.1em"><a href="<%= it.baseUrl %>/projects/<%= encodeURIComponent(p.projectId) %>/"><%= p.name %></a></h2>
<% if (p.checks.length === 0) { %><p>No checks.</p><% } else { %>
<table style="border-collapse: collapse">
<thead><tr><th scope="col" align="left">Check</th><th scope="col" align="left">Status</th><th scope="col" align="right">Downtimes</th><th scope="col" align="right">Downtime</th><th scope="col" align="right">Uptime</th></tr></thead>
<tbody>
<% for (const c of p.checks) { %><tr><td style="padding-right: 1em"><%= c.name %></td><td style="padding-right: 1em"><%= c.status %></td><td align="right" style="padding-right: 1em"><%= c.downtimes %></td><td align="right" style="padding-right: 1em"><%= c.downtime %></td><td align="right"><%= c.uptime %></td></tr>
<% } %></tbody>
</table>
<% } %>
<% } %>
<% if (it.lockedLine) { %><p><%= it.lockedLine %></p><% } %>
<p style="color: #555">You get this <%= it.every %> report because you asked for it in your account settings. <a href="<%= it.unsubscribeUrl %>">Unsubscribe</a></p>
</body>
</html>
`;

const REMINDER_HTML = `<!doctype html>
<html lang="en">
<body style="font-family: sans-serif; line-height: 1.5">
<p><%= it.intro %></p>
<% for (const p of it.sections) { %>
<h2 style="font-size: 1.1em"><a href="<%= it.baseUrl %>/projects/<%= encodeURIComponent(p.projectId) %>/"><%= p.name %></a></h2>
<ul>
<% for (const c of p.checks) { %><li><%= c.name %><%= c.since ? ': down since ' + it.when(c.since) : '' %></li>
<% } %></ul>
<% } %>
<% if (it.lockedLine) { %><p><%= it.lockedLine %></p><% } %>
<p style="color: #555">You get this <%= it.every %> reminder while any check is down because you asked for it in your account settings. <a href="<%= it.unsubscribeUrl %>">Unsubscribe</a></p>
</body>
</html>
`;

/** What both mails need besides their content. */
export interface MailContext {
  to: string;
  tz: string;
  /** `daily`, `weekly`, `monthly` or `hourly`. */
  every: string;
  siteName: string;
  /** Site root without a trailing slash. */
  baseUrl: string;
  unsubscribeUrl: string;
  /** Projects of the user the mail leaves out: they ask for a second factor the user has not added. */
  locked: number;
}

/** The one line saying why projects are left out; empty when none is. */
function lockedLine(locked: number): string {
  if (locked === 0) return '';
  const which = locked === 1 ? '1 project is left out: it asks' : `${locked} projects are left out: they ask`;
  return `${which} for a second factor you have not added. Add one on your account page to see it here.`;
}

/** Headers of a one-click unsubscribe (RFC 8058): the mail client POSTs the link. */
function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The covered period in words, in the user's zone: `2026-11-27`, `2026-11-16 to 2026-11-22`, `November 2026`. */
export function periodWords(every: string, period: Period, tz: string): string {
  const start = moment.tz(period.start, tz);
  if (every === 'monthly') return start.format('MMMM YYYY');
  if (every === 'daily') return start.format('YYYY-MM-DD');
  return `${start.format('YYYY-MM-DD')} to ${moment.tz(period.end, tz).subtract(1, 'day').format('YYYY-MM-DD')}`;
}

/** The report mail of `period`. */
export function reportMail(ctx: MailContext, period: Period, sections: ProjectSection<ReportLine>[]): RenderedMail {
  const words = periodWords(ctx.every, period, ctx.tz);
  const intro = `The ${ctx.every} report of your checks for ${words} (${ctx.tz}).`;
  const text = [
    intro,
    ...sections.map((p) => [`${p.name}`, ...(p.checks.length === 0 ? ['  No checks.'] : p.checks.map((c) => `  ${c.name}: ${c.status}, ${c.downtimes} downtimes, ${c.downtime} down, uptime ${c.uptime}`))].join('\n')),
    ...(ctx.locked > 0 ? [lockedLine(ctx.locked)] : []),
    `Unsubscribe from this report:\n${ctx.unsubscribeUrl}`,
  ].join('\n\n');
  const html = eta.renderString(REPORT_HTML, { ...ctx, intro, sections, lockedLine: lockedLine(ctx.locked) });
  return { to: ctx.to, subject: `${ctx.siteName} ${ctx.every} report: ${words}`, text: `${text}\n`, html, headers: unsubscribeHeaders(ctx.unsubscribeUrl) };
}

/** The reminder mail listing the checks down now. */
export function reminderMail(ctx: MailContext, sections: ProjectSection<DownLine>[]): RenderedMail {
  const count = sections.reduce((n, p) => n + p.checks.length, 0);
  const when = (d: Date): string => `${moment.tz(d, ctx.tz).format('YYYY-MM-DD HH:mm')} ${ctx.tz}`;
  const intro = count === 1 ? 'One check is down.' : `${count} checks are down.`;
  const text = [
    intro,
    ...sections.map((p) => [p.name, ...p.checks.map((c) => `  ${c.name}${c.since ? `: down since ${when(c.since)}` : ''}`)].join('\n')),
    ...(ctx.locked > 0 ? [lockedLine(ctx.locked)] : []),
    `Unsubscribe from these reminders:\n${ctx.unsubscribeUrl}`,
  ].join('\n\n');
  const html = eta.renderString(REMINDER_HTML, { ...ctx, intro, sections, when, lockedLine: lockedLine(ctx.locked) });
  return { to: ctx.to, subject: `${ctx.siteName} reminder: ${intro}`, text: `${text}\n`, html, headers: unsubscribeHeaders(ctx.unsubscribeUrl) };
}
