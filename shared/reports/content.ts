/**
 * What a report or reminder says (docs/reports.md), read from MongoDB at send time: per project the user may see (shared/services/access.ts:
 * a project asking for a second factor the user lacks is left out, and counted), each check's status and,
 * for a report, its downtime and uptime over the period from its flips (shared/domain/report-period.ts); for a reminder, the checks down now.
 */
import { Check, type CheckDoc } from '../models/check.js';
import { Flip, type FlipDoc } from '../models/flip.js';
import { projectsSeenBy, type Viewer } from '../services/access.js';
import { downtimeOf, formatDowntime, formatUptime, type Period } from '../domain/report-period.js';

/** One check's line of a report. */
export interface ReportLine {
  name: string;
  /** The stored status now: `new`, `up`, `down` or `paused`. */
  status: string;
  downtimes: number;
  /** Total downtime in the period, e.g. `2 h 5 min`. */
  downtime: string;
  /** Uptime of the period, e.g. `99.95%`. */
  uptime: string;
}

/** The checks of one project, by name. */
export interface ProjectSection<T> {
  projectId: string;
  name: string;
  checks: T[];
}

/** A check down now, and since when (its last flip into `down`; null when unknown). */
export interface DownLine {
  name: string;
  since: Date | null;
}

type ReportCheck = Pick<CheckDoc, '_id' | 'name' | 'status' | 'created' | 'projectId'>;

/** A check's name in a mail; an unnamed check shows its UUID, as the API's `uuid`. */
function nameOf(check: Pick<CheckDoc, '_id' | 'name'>): string {
  return check.name || check._id;
}

/** The projects open to the user, by name, each with its checks (by name) mapped by `line`. */
async function sections<T>(viewer: Viewer, filter: object, line: (checks: ReportCheck[]) => Promise<T[]>): Promise<ProjectSection<T>[]> {
  const projects = (await projectsSeenBy(viewer)).open;
  return Promise.all(
    projects.map(async ({ project }) => {
      const checks = await Check.find({ projectId: project._id, ...filter }, { name: 1, status: 1, created: 1, projectId: 1 }).lean<ReportCheck[]>();
      checks.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
      return { projectId: project._id, name: project.name || 'Unnamed project', checks: await line(checks) };
    }),
  );
}

/**
 * The downtime lines of one project's checks over `period`, from one read of their flips since the period began: the first one's `oldStatus` is
 * the status at the start (the current status when there is none since).
 */
async function reportLines(checks: ReportCheck[], period: Period): Promise<ReportLine[]> {
  const flips = await Flip.find({ checkId: { $in: checks.map((c) => c._id) }, created: { $gte: period.start } }, { checkId: 1, created: 1, oldStatus: 1, newStatus: 1 })
    .sort({ created: 1 })
    .lean<Pick<FlipDoc, 'checkId' | 'created' | 'oldStatus' | 'newStatus'>[]>();
  const byCheck = new Map<string, typeof flips>();
  for (const flip of flips) {
    const own = byCheck.get(flip.checkId);
    if (own) own.push(flip);
    else byCheck.set(flip.checkId, [flip]);
  }
  return checks.map((check) => {
    const own = byCheck.get(check._id) ?? [];
    const d = downtimeOf(period, (own[0]?.oldStatus ?? check.status) === 'down', own, check.created);
    return { name: nameOf(check), status: check.status, downtimes: d.downtimes, downtime: formatDowntime(d.downSeconds), uptime: formatUptime(d.uptime) };
  });
}

/** The report of `period`: every project open to the user with every check's line (two reads per project). */
export async function reportOf(viewer: Viewer, period: Period): Promise<ProjectSection<ReportLine>[]> {
  return sections(viewer, {}, (checks) => reportLines(checks, period));
}

/** How many of the user's projects a mail leaves out: those locked to them (a second factor they lack). */
export async function lockedCountOf(viewer: Viewer): Promise<number> {
  return (await projectsSeenBy(viewer)).locked.length;
}

/** The checks down now in the projects open to the user, by project; projects with none are left out (empty when nothing is down). */
export async function downNowOf(viewer: Viewer): Promise<ProjectSection<DownLine>[]> {
  const all = await sections(viewer, { status: 'down' }, (checks) =>
    Promise.all(
      checks.map(async (check) => {
        const flip = await Flip.findOne({ checkId: check._id, newStatus: 'down' }, { created: 1 }).sort({ created: -1 }).lean<Pick<FlipDoc, 'created'>>();
        return { name: nameOf(check), since: flip?.created ?? null };
      }),
    ),
  );
  return all.filter((section) => section.checks.length > 0);
}
