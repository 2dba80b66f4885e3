/**
 * A project's last 24 hours in one picture (docs/web-app.md, "A check's page"): one row per check with its runs
 * (start to end) and its down periods, drawn by server/pages/checks/charts.ts, with a table beside it. Read access.
 */
import { Router } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';
import { projectTimeline, viewerOf } from './charts.js';

/** Fields of a check the timeline reads. */
const FIELDS = { name: 1, status: 1, created: 1, nPings: 1 } as const;

/** Route of the timeline page. */
export function timelineRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/projects/:projectId/timeline/', projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const { zone, now } = viewerOf(res);
    const checks = await Check.find({ projectId: project._id }, FIELDS).sort({ created: 1 }).lean<CheckDoc[]>();
    const timeline = await projectTimeline(checks, now, zone);
    render(req, res, 'timeline', { title: 'Timeline', tab: 'checks', project, role, timeline });
  });
  return router;
}
