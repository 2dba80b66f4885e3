/**
 * A status page as visitors see it, computed in a fixed number of queries whatever its size (docs/status-pages.md, "Under a crowd"): the page, its
 * checks (those still in its project), their flips over the history span, the project's maintenance windows and the page's incidents. The cache
 * (server/status/cache.ts) keeps the result; nothing here runs per visitor.
 */
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { Incident, type IncidentDoc } from '../../shared/models/incident.js';
import type { StatusPageDoc } from '../../shared/models/status-page.js';
import { maintenanceOf } from '../../shared/checks/maintenance.js';
import { componentState, historyDays, historyOf, overallStatus, HISTORY_DAYS, type ComponentState, type DayUptime, type OverallStatus } from '../../shared/domain/status-page.js';
import { zoneOr } from '../pages/kit/times.js';

/** Milliseconds of the history span and of how long resolved incidents stay listed. */
export const HISTORY_MS = HISTORY_DAYS * 24 * 3600 * 1000;

/** One component as shown. */
export interface ComponentView {
  name: string;
  state: ComponentState;
  /** Uptime over the history span, 0 to 1; null when never monitored in it. */
  ratio: number | null;
  days: DayUptime[];
}

/** A section as shown: components whose check is gone are left out. */
export interface SectionView {
  name: string;
  components: ComponentView[];
}

/** The parts of the page that visitors see, as of `computed`. */
export interface Snapshot {
  page: Pick<StatusPageDoc, '_id' | 'slug' | 'title' | 'description' | 'visibility' | 'rev' | 'updated'> & { tz: string; logoHash: string | null };
  overall: OverallStatus;
  sections: SectionView[];
  /** Open ones and those resolved within the history span, newest first. */
  incidents: IncidentDoc[];
  /** The checks shown: a change to any of them makes the snapshot stale. */
  checkIds: Set<string>;
  computed: Date;
}

/**
 * Computes a page's snapshot at `now`.
 * @throws the MongoDB error.
 */
export async function computeSnapshot(page: StatusPageDoc, now: Date): Promise<Snapshot> {
  const wanted = [...new Set(page.sections.flatMap((s) => s.components.map((c) => c.checkId)))];
  const from = new Date(now.getTime() - HISTORY_MS - 24 * 3600 * 1000);
  // One round trip: the components' checks are all of the page's project, so its maintenance windows need not wait for them.
  const [checks, flips, incidents, maintenanceUntil] = await Promise.all([
    Check.find({ _id: { $in: wanted }, projectId: page.projectId }, { status: 1, projectId: 1, tags: 1 }).lean<CheckDoc[]>(),
    Flip.find({ checkId: { $in: wanted }, created: { $gte: from } }, { checkId: 1, created: 1, oldStatus: 1, newStatus: 1 }).lean<FlipDoc[]>(),
    Incident.find({ pageId: page._id, $or: [{ resolved: null }, { resolved: { $gte: new Date(now.getTime() - HISTORY_MS) } }] }).sort({ created: -1 }).lean<IncidentDoc[]>(),
    maintenanceOf([{ projectId: page.projectId }], now),
  ]);
  const byId = new Map(checks.map((c) => [c._id, c]));
  const flipsOf = new Map<string, FlipDoc[]>();
  for (const f of flips) flipsOf.set(f.checkId, [...(flipsOf.get(f.checkId) ?? []), f]);
  const tz = zoneOr(page.tz);
  const days = historyDays(now, tz);
  const sections = page.sections
    .map((section) => ({
      name: section.name,
      components: section.components.flatMap(({ checkId, name }) => {
        const check = byId.get(checkId);
        if (!check) return [];
        const history = historyOf(flipsOf.get(checkId) ?? [], check.status, days);
        return [{ name, state: componentState(check.status, maintenanceUntil(check) !== null), ratio: history.ratio, days: history.days }];
      }),
    }))
    .filter((s) => s.components.length > 0);
  const { _id, slug, title, description, visibility, rev, updated } = page;
  return {
    page: { _id, slug, title, description, visibility, rev, updated, tz, logoHash: page.logo?.hash ?? null },
    overall: overallStatus(sections.flatMap((s) => s.components.map((c) => c.state))),
    sections,
    incidents,
    checkIds: new Set(wanted),
    computed: now,
  };
}
