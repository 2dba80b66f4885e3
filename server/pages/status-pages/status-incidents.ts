/**
 * A status page's incidents in the browser (docs/status-pages.md): the list with each incident's updates, a form to open one and a form per
 * incident to post an update (`resolved` closes it, another stage reopens it), for owners and read-write members.
 */
import { Router, type Request, type Response } from 'express';
import { Incident, INCIDENT_STAGES, type IncidentDoc } from '../../../shared/models/incident.js';
import type { StatusPageDoc } from '../../../shared/models/status-page.js';
import { AppError } from '../../../shared/errors.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import type { AppDeps } from '../../deps.js';
import * as pages from '../../services/status-pages.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { render } from '../kit/render.js';
import { FieldError, fieldOf } from '../kit/forms.js';
import { pageOfPath, STATUS_PAGES } from './status-pages.js';
import type { IncidentValues } from './views.js';

const INCIDENTS = `${STATUS_PAGES}:pageId/incidents/`;
const ONE = `${INCIDENTS}:incidentId/`;
/** Most characters of an incident's title and of an update. */
export const MAX_INCIDENT_TITLE = 200;
export const MAX_UPDATE = 5000;

/** The form's values; an unknown stage reads as the first. */
function submittedIncident(req: Request): IncidentValues {
  const stage = fieldOf(req, 'stage');
  return { title: fieldOf(req, 'title').trim(), stage: INCIDENT_STAGES.find((s) => s === stage) ?? INCIDENT_STAGES[0], text: fieldOf(req, 'text').trim() };
}

/** @throws FieldError naming the first field at fault (`title`, or `text` of the form `form`). */
function checkIncident(values: IncidentValues, form: string, withTitle: boolean): void {
  if (withTitle && values.title === '') throw new FieldError(`${form}title`, 'give the incident a title');
  if (values.title.length > MAX_INCIDENT_TITLE) throw new FieldError(`${form}title`, `the title is longer than ${MAX_INCIDENT_TITLE} characters`);
  if (values.text.length > MAX_UPDATE) throw new FieldError(`${form}text`, `the update is longer than ${MAX_UPDATE} characters`);
}

/** Routes of the incidents page. */
export function statusIncidentsRouter(deps: AppDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const incidentOf = async (req: Request, page: StatusPageDoc): Promise<IncidentDoc> => {
    const id = String(req.params.incidentId);
    const incident = UUID_RE.test(id) ? await Incident.findOne({ _id: id, pageId: page._id }).lean<IncidentDoc>() : null;
    if (!incident) throw new AppError(404, 'no such incident: it may have been deleted');
    return incident;
  };
  const show = async (req: Request, res: Response, page: StatusPageDoc, values: IncidentValues | null = null, error: FieldError | null = null, status = 200) => {
    const { project, role } = accessOf(res);
    const incidents = await Incident.find({ pageId: page._id }).sort({ created: -1 }).limit(200).lean<IncidentDoc[]>();
    render(req, res, 'status-incidents', { title: `Incidents of ${page.title}`, tab: 'status', project, role, page, incidents, stages: INCIDENT_STAGES, values, error }, status);
  };
  const back = (res: Response, page: StatusPageDoc) => res.redirect(303, `/projects/${page.projectId}/status-pages/${page._id}/incidents/`);

  router.get(INCIDENTS, projectAccess('write'), async (req, res) => show(req, res, await pageOfPath(req, res)));
  router.post(INCIDENTS, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    const values = submittedIncident(req);
    try {
      checkIncident(values, '', true);
    } catch (err) {
      if (err instanceof FieldError) return show(req, res, page, values, err, 400);
      throw err;
    }
    await pages.createIncident(deps.redis, page._id, values.title, values.stage, values.text, deps.clock());
    req.session.notice = `Incident “${values.title}” posted.`;
    back(res, page);
  });
  router.post(ONE, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    const incident = await incidentOf(req, page);
    const values = submittedIncident(req);
    try {
      checkIncident({ ...values, title: '' }, `${incident._id}-`, false);
    } catch (err) {
      if (err instanceof FieldError) return show(req, res, page, values, err, 400);
      throw err;
    }
    await pages.updateIncident(deps.redis, incident, values.stage, values.text, deps.clock());
    req.session.notice = `Update posted to “${incident.title}”.`;
    back(res, page);
  });
  router.post(`${ONE}delete`, projectAccess('write'), async (req, res) => {
    const page = await pageOfPath(req, res);
    const incident = await incidentOf(req, page);
    await pages.deleteIncident(deps.redis, incident);
    req.session.notice = `Incident “${incident.title}” deleted.`;
    back(res, page);
  });
  return router;
}
