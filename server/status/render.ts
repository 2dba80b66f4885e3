/**
 * The answers of a public status page, rendered once per snapshot and kept beside it (server/status/cache.ts): the page (HTML), its JSON
 * (docs/status-pages.md has the schema), the Atom feed of its incidents, the SVG badge of its overall status, and the logo. Each has a strong
 * ETag of its bytes and a gzip copy for clients that accept it.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { makeBadge } from 'badge-maker';
import { OVERALL_LABELS, STATE_LABELS, type DayUptime } from '../../shared/domain/status-page.js';
import { INCIDENT_STAGES, type IncidentDoc } from '../../shared/models/incident.js';
import { logoBytes } from '../../shared/models/status-page.js';
import { exactTime, shortDuration } from '../pages/kit/times.js';
import { renderShared } from '../pages/kit/render.js';
import type { CachedPage, Output } from './cache.js';
import type { Snapshot } from './snapshot.js';

/** The formats of a page: its path under `/status/<slug>/`, media type and how it is made. */
export const FORMATS = {
  html: { path: '', type: 'text/html; charset=utf-8' },
  json: { path: 'status.json', type: 'application/json; charset=utf-8' },
  atom: { path: 'feed.atom', type: 'application/atom+xml; charset=utf-8' },
  badge: { path: 'badge.svg', type: 'image/svg+xml' },
} as const;
export type Format = keyof typeof FORMATS;

/** The overall status colours of the badge. */
const BADGE_COLORS = { operational: '#4c1', partial: '#fe7d37', major: '#e05d44', maintenance: '#3b82f6' } as const;

/** Characters XML 1.0 does not allow even escaped (C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF): left out of the feed. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu;

/** `format` of the cached page, rendered on first use and kept with it. */
export function outputOf(cached: CachedPage, format: Format, baseUrl: string): Output {
  const kept = cached.outputs.get(format);
  if (kept) return kept;
  const body = Buffer.from(bodyOf(cached.snapshot, format, baseUrl));
  const output = { body, gzip: gzipSync(body), etag: `"${createHash('sha1').update(body).digest('base64url')}"`, type: FORMATS[format].type };
  cached.outputs.set(format, output);
  return output;
}

/** The logo's answer (the image as uploaded), or null when the page has none. */
export function logoOf(cached: CachedPage): Output | null {
  const { logo } = cached.page;
  if (!logo) return null;
  const body = logoBytes(logo);
  return { body, gzip: body, etag: `"${logo.hash}"`, type: logo.type };
}

function bodyOf(snapshot: Snapshot, format: Format, baseUrl: string): string {
  const url = `${baseUrl}/status/${snapshot.page.slug}/`;
  if (format === 'json') return JSON.stringify(presentStatus(snapshot, url));
  if (format === 'badge') return makeBadge({ label: 'status', message: OVERALL_LABELS[snapshot.overall].toLowerCase(), color: BADGE_COLORS[snapshot.overall], style: 'flat' });
  const zone = snapshot.page.tz;
  const time = (at: Date) => exactTime(at, zone);
  if (format === 'atom') return renderShared('status-feed', { s: snapshot, url, stageOf, updatedOf }).replace(NOT_XML, '');
  return renderShared('status-page', { s: snapshot, url, time, dayText, barText, stageOf, labels: { overall: OVERALL_LABELS, state: STATE_LABELS }, percent });
}

/** The page as JSON (docs/status-pages.md, "JSON"). */
export function presentStatus(s: Snapshot, url: string): unknown {
  return {
    page: { title: s.page.title, description: s.page.description, url, time_zone: s.page.tz },
    status: { indicator: s.overall, description: OVERALL_LABELS[s.overall] },
    sections: s.sections.map((section) => ({
      name: section.name,
      components: section.components.map((c) => ({
        name: c.name,
        status: c.state,
        uptime: c.ratio,
        days: c.days.map((d) => ({ date: d.date, uptime: d.ratio, downtimes: d.downtimes, down_seconds: Math.round(d.downMs / 1000) })),
      })),
    })),
    incidents: s.incidents.map((i) => ({
      id: i._id,
      title: i.title,
      status: stageOf(i),
      created: i.created.toISOString(),
      resolved: i.resolved?.toISOString() ?? null,
      updates: [...i.updates].reverse().map((u) => ({ at: u.at.toISOString(), status: u.stage, text: u.text })),
    })),
    generated: s.computed.toISOString(),
  };
}

/** Where an incident stands: its newest update's stage. */
function stageOf(incident: IncidentDoc): string {
  return incident.updates.at(-1)?.stage ?? INCIDENT_STAGES[0];
}

/** When an incident last changed. */
function updatedOf(incident: IncidentDoc): Date {
  return incident.updates.at(-1)?.at ?? incident.created;
}

/** A ratio as a percentage with two decimals ("99.95 %"), or "no data". */
function percent(ratio: number | null): string {
  return ratio === null ? 'no data' : `${(Math.floor(ratio * 10_000) / 100).toFixed(2)} %`;
}

/** One day's hover text: "2026-11-20: 2 downtimes, 1 h 5 min down (95.49 %)". */
function dayText(day: DayUptime): string {
  if (day.ratio === null) return `${day.date}: not monitored`;
  if (day.downtimes === 0) return `${day.date}: no downtime`;
  return `${day.date}: ${day.downtimes} downtime${day.downtimes === 1 ? '' : 's'}, ${shortDuration(day.downMs)} down (${percent(day.ratio)})`;
}

/** A bar's text alternative: the span's uptime and how many days had downtime. */
function barText(ratio: number | null, days: readonly DayUptime[]): string {
  const down = days.filter((d) => d.downtimes > 0).length;
  return `Uptime over the last ${days.length} days: ${percent(ratio)}; ${down === 0 ? 'no day' : `${down} day${down === 1 ? '' : 's'}`} with downtime`;
}
