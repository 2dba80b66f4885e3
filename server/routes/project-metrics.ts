/**
 * Per-project Prometheus metrics at the reference's three paths (docs/operations.md). The key picks the project, the
 * UUID only has to be well formed; no Bearer → 401, key not 32 characters → 400, not a read-only key → 403 (empty).
 * A named read-only key made in the web app counts as the project's own read-only key.
 */
import { Router, type Request, type RequestHandler } from 'express';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { UUID_RE } from '../../shared/domain/ids.js';
import { Check } from '../../shared/models/check.js';
import { findProjectByReadonlyKey, hashApiKey } from '../../shared/services/projects.js';
import { apiKeyByDigest } from '../../shared/services/api-keys.js';
import { projectByReferenceKey } from '../../shared/services/reference-keys.js';
import { Project, type ProjectDoc } from '../../shared/models/project.js';
import { renderProjectMetrics, type MetricsCheck } from '../presenters/project-metrics.js';

/** The reference's `slug` path converter, which the key must match. */
const SLUG_RE = /^[-a-zA-Z0-9_]+$/;

/** API keys are 32 characters (docs/api-reference.md, "API keys"). */
const KEY_LENGTH = 32;

/** Fields the metrics read; the rest of each check is not loaded. */
const PROJECTION = {
  name: 1, tags: 1, kind: 1, timeout: 1, grace: 1, schedule: 1, tz: 1, status: 1, lastPing: 1, lastStart: 1, lastStartRid: 1, manualResume: 1,
};

/** The key from the path, or from `Authorization: Bearer <key>` when the path has none. */
function keyOf(req: Request): string {
  if (req.params.key !== undefined) return String(req.params.key);
  const header = req.get('authorization') ?? '';
  if (!header.startsWith('Bearer ')) throw new AppError(401, 'bearer token required', 'empty');
  return header.slice('Bearer '.length);
}

/**
 * The project of a read-only key: the project's own, a named read-only key made in the web app, or one a project imported
 * from Healthchecks kept (docs/migrating.md); null for any other.
 */
async function projectOfReadonlyKey(key: string): Promise<ProjectDoc | null> {
  const own = await findProjectByReadonlyKey(key);
  if (own) return own;
  const named = await apiKeyByDigest(hashApiKey(key));
  if (named) return named.readOnly ? Project.findById(named.projectId).lean<ProjectDoc>() : null;
  const imported = await projectByReferenceKey(key);
  return imported?.readOnly ? imported.project : null;
}

/** The metrics router; `clock` gives the moment live statuses are computed at. */
export function projectMetricsRouter(clock: Clock): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const serve: RequestHandler = async (req, res) => {
    if (!UUID_RE.test(String(req.params.code))) throw notFound();
    if (req.params.key !== undefined && !SLUG_RE.test(String(req.params.key))) throw notFound();
    const key = keyOf(req);
    if ([...key].length !== KEY_LENGTH) throw new AppError(400, 'api key is not 32 characters', 'empty');
    const project = await projectOfReadonlyKey(key);
    if (!project) throw new AppError(403, 'not a read-only api key', 'empty');
    const checks = await Check.find({ projectId: project._id }, PROJECTION).sort({ created: 1, _id: 1 }).lean<MetricsCheck[]>();
    // setHeader, not res.type(): the reference sends exactly `text/plain`.
    res.status(200).setHeader('Content-Type', 'text/plain');
    res.end(renderProjectMetrics(checks, clock()));
  };
  router.get(['/projects/:code/metrics/:key', '/projects/:code/checks/metrics/:key', '/projects/:code/metrics/'], serve);
  return router;
}
