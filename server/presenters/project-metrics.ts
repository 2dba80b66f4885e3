/**
 * A project's checks as Prometheus metrics, byte for byte as the reference's prometheus `metrics` view writes them;
 * by hand, since prom-client cannot write its label spacing (`{name="…", tags="…"}`).
 */
import type { CheckDoc } from '../../shared/models/check.js';
import { liveStatus, type CheckState } from '../../shared/domain/status.js';
import { uniqueKeyOf } from '../../shared/domain/ids.js';

/** The check fields the metrics read. */
export type MetricsCheck = Pick<CheckDoc, '_id' | 'name' | 'tags'> & CheckState;

/** Escapes a label value as the reference does: backslash, double quote, newline. */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** The reference's `tags_list()`: space-separated tokens, stripped, empty ones dropped. */
function tagsOf(tags: string): string[] {
  return tags.split(' ').map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/** Orders strings by code point, as Python's `sorted` does (UTF-16 order differs above U+FFFF). */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a, (c) => c.codePointAt(0)!), Array.from(b, (c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function family(name: string, help: string, samples: string[]): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${samples.join('')}`;
}

/** The body of `GET /projects/<uuid>/metrics/<key>`: `checks` in creation order, live statuses at `now`. */
export function renderProjectMetrics(checks: MetricsCheck[], now: Date): string {
  const rows = checks.map((check) => ({
    labels: `{name="${escapeLabel(check.name)}", tags="${escapeLabel(check.tags)}", unique_key="${uniqueKeyOf(check._id)}"}`,
    status: liveStatus(check, now),
    started: check.lastStart ? 1 : 0,
    tags: tagsOf(check.tags),
  }));
  const per = (name: string, value: (row: (typeof rows)[number]) => number): string[] =>
    rows.map((row) => `${name}${row.labels} ${value(row)}\n`);
  const allTags = new Set(rows.flatMap((row) => row.tags));
  const down = rows.filter((row) => row.status === 'down');
  const downTags = new Set(down.flatMap((row) => row.tags));
  const tagSamples = [...allTags].sort(byCodePoint).map((tag) => `hc_tag_up{tag="${escapeLabel(tag)}"} ${downTags.has(tag) ? 0 : 1}\n`);
  return [
    family('hc_check_up', 'Whether the check is currently up (1 for yes, 0 for no).', per('hc_check_up', (row) => (row.status === 'down' ? 0 : 1))),
    family('hc_check_started', 'Whether the check is currently started (1 for yes, 0 for no).', per('hc_check_started', (row) => row.started)),
    family('hc_check_grace', 'Whether the check is currently in the grace period (1 for yes, 0 for no).', per('hc_check_grace', (row) => (row.status === 'grace' ? 1 : 0))),
    family('hc_check_paused', 'Whether the check is currently paused (1 for yes, 0 for no).', per('hc_check_paused', (row) => (row.status === 'paused' ? 1 : 0))),
    family('hc_tag_up', 'Whether all checks with this tag are up (1 for yes, 0 for no).', tagSamples),
    family('hc_checks_total', 'The total number of checks.', [`hc_checks_total ${rows.length}\n`]),
    family('hc_checks_down_total', 'The number of checks currently down.', [`hc_checks_down_total ${down.length}\n`]),
  ].join('\n');
}
