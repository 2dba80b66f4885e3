/**
 * A project's status pages in the browser (docs/status-pages.md): the list for every member; create, edit
 * (settings, logo, sections of components), delete for owners and read-write members. Incidents are server/pages/status-pages/status-incidents.ts. Writes go
 * through server/services/status-pages.ts, which tells every web process's cache.
 */
import { Router, type Request, type Response } from 'express';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { logoBytes, StatusPage, type StatusPageDoc } from '../../../shared/models/status-page.js';
import { AppError } from '../../../shared/errors.js';
import { CAN } from '../../../shared/services/members.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import type { AppDeps } from '../../deps.js';
import * as pages from '../../services/status-pages.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { PAGE_HEADERS, render } from '../kit/render.js';
import { FieldError } from '../kit/forms.js';
import { logoOf, sectionsOf, settingsOf, settingsValuesOf, submittedSections, submittedSettings, type SectionValues, type SettingsValues } from './status-page-form.js';

/** The list's path. */
export const STATUS_PAGES = '/projects/:projectId/status-pages/';
const ONE = `${STATUS_PAGES}:pageId/`;

/** The path's page in the request's project, without the logo's bytes unless `withLogo`. @throws AppError(404) otherwise. */
export async function pageOfPath(req: Request, res: Response, withLogo = false): Promise<StatusPageDoc> {
  const id = String(req.params.pageId);
  const page = UUID_RE.test(id) ? await StatusPage.findOne({ _id: id, projectId: accessOf(res).project._id }, withLogo ? {} : { 'logo.data': 0 }).lean<StatusPageDoc>() : null;
  if (!page) throw new AppError(404, 'no such status page: it may have been deleted');
  return page;
}

/** The editor's view of the sections: the stored ones, each with a blank row to add a component, and a blank section. */
function sectionRowsOf(sections: readonly SectionValues[]): SectionValues[] {
  return [...sections, { name: '', components: [] }].map((s) => ({ name: s.name, components: [...s.components, { checkId: '', name: '' }] }));
}

/** Routes of the status page editor. */
export function statusPagesRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const checksOf = (projectId: string) => Check.find({ projectId }, { name: 1 }).sort({ name: 1, created: 1 }).lean<CheckDoc[]>();
  const listOf = (projectId: string) => StatusPage.find({ projectId }, { title: 1, slug: 1, published: 1, visibility: 1 }).sort({ created: 1 }).lean<StatusPageDoc[]>();

  router.get(STATUS_PAGES, projectAccess('read'), async (req, res) => {
    const { project, role } = accessOf(res);
    render(req, res, 'status-pages', { title: 'Status pages', tab: 'status', project, role, can: CAN, pages: await listOf(project._id) });
  });

  type Editor = { settings?: SettingsValues; sections?: SectionValues[]; error?: FieldError | null; status?: number };
  const editor = async (req: Request, res: Response, page: StatusPageDoc | null, { settings, sections, error = null, status = 200 }: Editor) => {
    const { project, role } = accessOf(res);
    const title = page ? `Edit ${page.title}` : 'New status page';
    const rows = sectionRowsOf(sections ?? page?.sections ?? []);
    render(req, res, 'status-edit', { title, tab: 'status', project, role, page, values: settings ?? settingsValuesOf(page), rows, checks: await checksOf(project._id), error }, status);
  };
  /** Runs a write, then shows the page's editor (`write` gives the notice and the page's id); a FieldError shows it again with what was typed. */
  const saving = async (req: Request, res: Response, page: StatusPageDoc | null, fallback: Editor, write: () => Promise<[string, string]>) => {
    try {
      const [notice, pageId] = await write();
      req.session.notice = notice;
      res.redirect(303, `/projects/${accessOf(res).project._id}/status-pages/${pageId}/`);
    } catch (err) {
      const error = err instanceof pages.SlugTaken ? new FieldError('slug', err.message) : err;
      if (error instanceof FieldError) return editor(req, res, page, { ...fallback, error, status: 400 });
      throw err;
    }
  };

  router.get(`${STATUS_PAGES}new/`, projectAccess('write'), (req, res) => editor(req, res, null, {}));
  router.post(STATUS_PAGES, projectAccess('write'), async (req, res) => {
    const settings = submittedSettings(req);
    await saving(req, res, null, { settings }, async () => {
      const created = await pages.createStatusPage(deps.redis, accessOf(res).project._id, await settingsOf(settings, false), deps.clock());
      return [`Status page “${created.title}” created: now add its components.`, created._id];
    });
  });
  router.get(ONE, projectAccess('write'), async (req, res) => editor(req, res, await pageOfPath(req, res), {}));
  router.post(ONE, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    const settings = submittedSettings(req);
    await saving(req, res, page, { settings }, async () => {
      await pages.updateStatusPage(deps.redis, page, await settingsOf(settings, page.passwordHash !== null), deps.clock());
      return ['Settings saved.', page._id];
    });
  });
  router.post(`${ONE}sections`, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    const sections = submittedSections(req);
    await saving(req, res, page, { sections }, async () => {
      const checkIds = new Set((await checksOf(page.projectId)).map((c) => c._id));
      await pages.updateStatusPage(deps.redis, page, { sections: sectionsOf(sections, checkIds) }, deps.clock());
      return ['Components saved.', page._id];
    });
  });
  router.post(`${ONE}logo`, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    await saving(req, res, page, {}, async () => {
      const refused = res.locals.uploadError as string | undefined;
      if (refused) throw new FieldError('logo', refused);
      await pages.updateStatusPage(deps.redis, page, { logo: logoOf(req.file?.buffer) }, deps.clock());
      return ['Logo saved.', page._id];
    });
  });
  router.get(`${ONE}logo`, projectAccess('write'), async (req, res) => {
    const { logo } = (await pageOfPath(req, res, true)) ?? {};
    if (!logo) throw new AppError(404, 'this status page has no logo');
    res.set(PAGE_HEADERS).type(logo.type).send(logoBytes(logo));
  });
  router.post(`${ONE}logo/delete`, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    await saving(req, res, page, {}, async () => {
      await pages.updateStatusPage(deps.redis, page, { logo: null }, deps.clock());
      return ['Logo removed.', page._id];
    });
  });
  router.post(`${ONE}delete`, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    await pages.deleteStatusPage(deps.redis, page._id);
    req.session.notice = `Status page “${page.title}” deleted.`;
    res.redirect(303, `/projects/${page.projectId}/status-pages/`);
  });
  return router;
}
