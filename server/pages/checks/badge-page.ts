/**
 * A project's badges in the browser (docs/web-app.md, "Badges"): a GET form choosing all checks, a tag or one
 * check, a format (SVG, JSON, shields.io endpoint JSON) and 2 or 3 states, answering the existing badge URL
 * (docs/api-reference.md, "Badges": signed tag URLs under the project's badge key, `/b/<states>/<check badge key>`) with a preview.
 * Read access.
 */
import { Router, type Request } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { badgeUrls, type BadgeUrls } from '../../../shared/domain/badges.js';
import type { BadgeStates } from '../../../shared/domain/badge-status.js';
import { config } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { BADGE_FORMATS, isBadgeFormat, type BadgeFormat } from '../../presenters/badge.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';

/** The generator's choices, as the query string carries them. */
export interface BadgeChoice {
  /** `*` (all checks), `tag:<tag>` or `check:<check id>`. */
  scope: string;
  format: BadgeFormat;
  states: BadgeStates;
}

/** One string of the query string, or the default when absent. @throws AppError(400) when repeated. */
function one(req: Request, name: string, fallback: string): string {
  const value: unknown = (req.query as Record<string, unknown>)[name];
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string') throw new AppError(400, `${name} is given more than once: choose one`);
  return value;
}

/** The choices of the query string; all checks, SVG and 3 states by default. @throws AppError(400) for an unknown format or states. */
function choiceOf(req: Request): BadgeChoice {
  const format = one(req, 'format', 'svg');
  const states = one(req, 'states', '3');
  if (!isBadgeFormat(format)) throw new AppError(400, `no such badge format: ${format} (choose svg, json or shields)`);
  if (states !== '2' && states !== '3') throw new AppError(400, 'states must be 2 (up, down) or 3 (up, late, down)');
  return { scope: one(req, 'scope', '*'), format, states: states === '3' ? 3 : 2 };
}

/** The key of a tag's badge URLs for a format and states (`svg`, `svg3`, …). */
function urlKey(format: BadgeFormat, states: BadgeStates): keyof BadgeUrls {
  return states === 3 ? `${format}3` : format;
}

/** The distinct tags of `checks`, sorted (as `GET /api/v3/badges/` lists them). */
function tagsOf(checks: readonly CheckDoc[]): string[] {
  return [...new Set(checks.flatMap((check) => check.tags.split(/\s+/).filter((tag) => tag !== '')))].sort();
}

/** Route of the badges page. */
export function badgePageRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/projects/:projectId/badges/', projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    const choice = choiceOf(req);
    const checks = await Check.find({ projectId: project._id }, { name: 1, tags: 1, badgeKey: 1 }).sort({ created: 1 }).lean<CheckDoc[]>();
    const tags = tagsOf(checks);
    const url = (format: BadgeFormat): string => {
      if (choice.scope.startsWith('check:')) {
        const check = checks.find((c) => `check:${c._id}` === choice.scope);
        if (!check) throw new AppError(400, 'no such check in this project: choose one from the list');
        return `${config.baseUrl}/b/${choice.states}/${check.badgeKey}.${format}`;
      }
      const tag = choice.scope === '*' ? '*' : choice.scope.slice('tag:'.length);
      if (tag !== '*' && (!choice.scope.startsWith('tag:') || !tags.includes(tag))) throw new AppError(400, 'no such tag in this project: choose one from the list');
      return badgeUrls(config.baseUrl, project.badgeKey, config.secretKey, tag)[urlKey(format, choice.states)];
    };
    const preview = new URL(url('svg')).pathname;
    render(req, res, 'badges', { title: 'Badges', tab: 'badges', project, role, choice, checks, tags, formats: BADGE_FORMATS, url: url(choice.format), preview });
  });
  return router;
}
