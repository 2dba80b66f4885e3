/**
 * A project's status counts and tag chips from `$group`s of its checks by `tags` string and stored status: the
 * groups are corrected into shown statuses (a due check is down, a running one started, a late one in grace) and
 * summed per tag, so the list never reads every check to count them.
 */
import { Check, type StoredStatus } from '../../../../shared/models/check.js';
import { LIST_STATUSES, TROUBLE, type ListRow, type ListStatus } from './list-query.js';

/** A MongoDB filter of checks. */
type Filter = Record<string, unknown>;
/** Checks of each shown status. */
export type Counts = Record<ListStatus, number>;

/** A `$group` row: the checks of one `tags` string, stored status and grace (seconds). */
export interface Group {
  _id: { tags?: string; status: StoredStatus; grace?: number };
  n: number;
}
/** The checks matching `match` counted by `tags` string and stored status, and by grace when `byGrace`. */
export const groupsOf = (match: Filter, byGrace = false): Promise<Group[]> =>
  Check.aggregate<Group>([{ $match: match }, { $group: { _id: { tags: '$tags', status: '$status', ...(byGrace ? { grace: '$grace' } : {}) }, n: { $sum: 1 } } }]).exec();

/** Zero checks of every shown status. */
export const zeroCounts = (): Counts => Object.fromEntries(LIST_STATUSES.map((s) => [s, 0])) as Counts;

/** The shown-status counts of each `tags` string from the three groupings and the late rows (see list-find.ts for what each shown status reads). */
export function countsByTags(all: Group[], due: Group[], running: Group[], late: Pick<ListRow, 'tags'>[]): Map<string, Counts> {
  const byTags = new Map<string, Counts>();
  const of = (tags: string | undefined): Counts => {
    const key = tags ?? '';
    if (!byTags.has(key)) byTags.set(key, zeroCounts());
    return byTags.get(key)!;
  };
  for (const g of all) of(g._id.tags)[g._id.status] += g.n;
  for (const g of due.filter((d) => d._id.status !== 'down')) {
    of(g._id.tags)[g._id.status] -= g.n;
    of(g._id.tags).down += g.n;
  }
  for (const g of running.filter((r) => r._id.status === 'up' || r._id.status === 'new')) {
    of(g._id.tags)[g._id.status] -= g.n;
    of(g._id.tags).started += g.n;
  }
  for (const row of late) {
    of(row.tags).up--;
    of(row.tags).grace++;
  }
  return byTags;
}

/** A tag's chip: its checks' count and worst shown status (TROUBLE order). */
export interface Chip {
  tag: string;
  worst: ListStatus;
  count: number;
}

/** The chips, by tag name, of the counts by `tags` string. */
export function chipsOf(byTags: Map<string, Counts>): Chip[] {
  const chips = new Map<string, Chip>();
  for (const [tags, counts] of byTags) {
    const worst = TROUBLE.find((s) => counts[s] > 0);
    if (!worst) continue;
    const count = LIST_STATUSES.reduce((sum, s) => sum + counts[s], 0);
    for (const tag of tags.split(/\s+/)) {
      if (tag === '') continue;
      const chip = chips.get(tag);
      if (!chip) chips.set(tag, { tag, worst, count });
      else {
        chip.count += count;
        if (TROUBLE.indexOf(worst) < TROUBLE.indexOf(chip.worst)) chip.worst = worst;
      }
    }
  }
  return [...chips.values()].sort((a, b) => a.tag.localeCompare(b.tag));
}
