/**
 * Badges without an API key (docs/api-reference.md, "Badges"): `/badge/<project badge key>/<sig>[-2]/<tag>.<fmt>`,
 * `/badge/<project badge key>/<sig>[-2].<fmt>` (all checks), `/b/<states>/<check badge key>.<fmt>`. CORS and no-cache
 * on every response; 404 for a path the reference would not route, an unknown key, a bad signature or format.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Project, type ProjectDoc } from '../../shared/models/project.js';
import { badgeSignature } from '../../shared/domain/badges.js';
import { referenceBadgeSignatureOk } from '../../shared/services/reference-keys.js';
import { hasTag, summarizeBadge, type BadgeStates } from '../../shared/domain/badge-status.js';
import { liveStatus } from '../../shared/domain/status.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { config } from '../../shared/config.js';
import { notFound } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { endpoint } from '../middleware/endpoint.js';
import { isBadgeFormat, sendBadge } from '../presenters/badge.js';

/** The reference's `slug` path converter. */
const SLUG = /^[-a-zA-Z0-9_]+$/;
/** `<name>.<slug>`: the last dot separates the format. */
const DOTTED = /^(.+)\.([-a-zA-Z0-9_]+)$/;
/** What a tag segment may hold after the path's decoding (Python's Unicode `\w`, `%`, `~`, `.`, `-`). */
const TAG_SEGMENT = /^[\p{L}\p{N}_%~.-]+$/u;
/** Length of a 2-state signature: 8 characters and `-2` (docs/api-reference.md, "Badges"). */
const TWO_STATE_SIG_LENGTH = 10;
const SIG_LENGTH = 8;

/** A parsed project badge path. */
interface TagBadgePath {
  badgeKey: string;
  sig: string;
  /** Decoded tag, or `*` for all checks. */
  tag: string;
  fmt: string;
}

/** A parsed per-check badge path. */
interface CheckBadgePath {
  states: BadgeStates;
  badgeKey: string;
  fmt: string;
}

/** Decodes the tag segment once more (the URL encodes it twice); null when it is not a valid encoding. */
function decodeTag(segment: string): string | null {
  if (!TAG_SEGMENT.test(segment)) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function parseTagBadge(params: Record<string, string>): TagBadgePath | null {
  const { badgeKey = '', sig: sigParam, file = '' } = params;
  const dotted = DOTTED.exec(file);
  if (!dotted || !SLUG.test(badgeKey)) return null;
  const [, name = '', fmt = ''] = dotted;
  const sig = sigParam ?? name;
  const tag = sigParam === undefined ? '*' : decodeTag(name);
  if (tag === null || !SLUG.test(sig)) return null;
  return { badgeKey, sig, tag, fmt };
}

function parseCheckBadge(params: Record<string, string>): CheckBadgePath | null {
  const { states = '', file = '' } = params;
  const dotted = DOTTED.exec(file);
  if (!dotted || !/^\d+$/.test(states) || !UUID_RE.test(dotted[1] ?? '')) return null;
  return { states: Number(states) === 3 ? 3 : 2, badgeKey: dotted[1] ?? '', fmt: dotted[2] ?? '' };
}

/** Runs first on every method: no caching, and 404 for a path the reference's URL patterns reject. */
function guard(parse: (params: Record<string, string>) => object | null): RequestHandler {
  return (req, res, next) => {
    res.set('Cache-Control', 'max-age=0, no-cache, no-store, must-revalidate, private');
    const parsed = parse(req.params as Record<string, string>);
    if (!parsed) throw notFound();
    res.locals.badge = parsed;
    next();
  };
}

function tagBadge(clock: Clock): RequestHandler {
  return async (_req: Request, res: Response) => {
    const { badgeKey, sig, tag, fmt } = res.locals.badge as TagBadgePath;
    if (!isBadgeFormat(fmt)) throw notFound();
    const project = await Project.findOne({ badgeKey }, { _id: 1, badgeKey: 1, reference: 1 }).lean<Pick<ProjectDoc, '_id' | 'badgeKey' | 'reference'>>();
    if (!project) throw notFound();
    // A project imported from Healthchecks also answers the URLs that site signed (docs/migrating.md).
    const signed = sig.slice(0, SIG_LENGTH) === badgeSignature(badgeKey, config.secretKey, tag) || referenceBadgeSignatureOk(project, tag, sig);
    if (!signed) throw notFound();
    const checks = await Check.find({ projectId: project._id }).lean<CheckDoc[]>();
    const counted = tag === '*' ? checks : checks.filter((check) => hasTag(check.tags, tag));
    const now = clock();
    const states: BadgeStates = sig.length === TWO_STATE_SIG_LENGTH && sig.endsWith('-2') ? 2 : 3;
    const summary = summarizeBadge(counted.map((check) => liveStatus(check, now)), states);
    sendBadge(res, fmt, tag === '*' ? config.siteName : tag, summary);
  };
}

function checkBadge(clock: Clock): RequestHandler {
  return async (_req: Request, res: Response) => {
    const { states, badgeKey, fmt } = res.locals.badge as CheckBadgePath;
    if (!isBadgeFormat(fmt)) throw notFound();
    const check = await Check.findOne({ badgeKey }).lean<CheckDoc>();
    if (!check) throw notFound();
    sendBadge(res, fmt, check.name || check._id, summarizeBadge([liveStatus(check, clock())], states));
  };
}

/** Router for badge documents, mounted at the site root; `clock` gives the live statuses' "now". */
export function badgeRouter(clock: Clock = systemClock): Router {
  // Case-sensitive, as the reference: `/BADGE/…` and `/B/…` are no route (docs/api-reference.md, "Badges").
  const router = Router({ caseSensitive: true });
  endpoint(router, '/badge/:badgeKey/:file', { GET: [tagBadge(clock)] }, guard(parseTagBadge));
  endpoint(router, '/badge/:badgeKey/:sig/:file', { GET: [tagBadge(clock)] }, guard(parseTagBadge));
  endpoint(router, '/b/:states/:file', { GET: [checkBadge(clock)] }, guard(parseCheckBadge));
  return router;
}
