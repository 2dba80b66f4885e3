/**
 * A project's integrations in the browser (docs/web-app.md): the channels with their kind, assigned checks and last
 * delivery (from the notification log); owners and read-write members add, edit, delete and test them. Writes go
 * through shared/services/channels.ts with the API's validation; a test goes through the real provider once
 * (shared/notify/channel-status.ts, as `hc-admin channel test`), at most once per {@link TEST_INTERVAL_SECONDS} per channel,
 * {@link TESTS_PER_USER} an hour per person and {@link TESTS_PER_PROJECT} per project (so no one mails an address over and over).
 * An email address added gets a confirmation mail (server/pages/integrations/channel-links.ts), limited per address and client.
 * As in the reference, a channel added here is assigned to every check of the project unless its form's "Assign to all
 * existing checks" is unticked (the Management API assigns nothing); its edit page switches its checks (integration-checks.ts).
 */
import { Router, type Request, type Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { Check } from '../../../shared/models/check.js';
import { Notification, type NotificationDoc } from '../../../shared/models/notification.js';
import { AppError } from '../../../shared/errors.js';
import { CAN } from '../../../shared/services/members.js';
import { sendTestNotification } from '../../../shared/notify/channel-status.js';
import { assignChannel, createChannel, deleteChannel, newAddresses, updateChannel } from '../../../shared/services/channels.js';
import { unconfirmedAfter } from '../../../shared/services/email-channels.js';
import { UUID_RE } from '../../../shared/domain/ids.js';
import type { AppDeps } from '../../deps.js';
import { presentChannelSettings } from '../../presenters/channel.js';
import { presentNotification } from '../../presenters/notification.js';
import type { WebOptions } from '../kit/options.js';
import { accessOf, projectAccess } from '../kit/guard.js';
import { currentUser, render } from '../kit/render.js';
import { FieldError } from '../kit/forms.js';
import { channelOfForm, channelValuesOf, choosingKind, DIRECTIONS, submittedChannel, type ChannelFormValues } from './channel-form.js';
import { channelFormView } from './channel-view.js';
import type { AccountLimits } from '../kit/limits.js';
import { allowConfirmations, mailInBackground } from './channel-links.js';
import { ticked } from '../kit/forms.js';
import { kindIcon, kindLabel } from './integration-icons.js';
import { forMembers } from './integration-messages.js';
import { assignedChecks, integrationChecksRouter } from './integration-checks.js';
import type { IntegrationRow, TestResult } from './views.js';

/** Shortest time between two tests of one channel, seconds. */
export const TEST_INTERVAL_SECONDS = 5;
/** Tests a person may send an hour, across channels and projects. */
export const TESTS_PER_USER = 20;
/** Tests a project's members may send an hour together. */
export const TESTS_PER_PROJECT = 30;
const HOUR_SECONDS = 3600;
/** Longest provider answer shown after a test, characters. */
const ANSWER_CHARS = 500;
const ONE = '/projects/:projectId/integrations/:channelId/';

/** The path's channel in the request's project. @throws AppError(404) `no such integration` otherwise. */
async function channelOfPath(req: Request, res: Response): Promise<ChannelDoc> {
  const id = String(req.params.channelId);
  const channel = UUID_RE.test(id) ? await Channel.findOne({ _id: id, projectId: accessOf(res).project._id }).lean<ChannelDoc>() : null;
  if (!channel) throw new AppError(404, 'no such integration: it may have been deleted');
  return channel;
}

/** A channel as the list shows it: settings masked, checks assigned, the newest notification's JSON (or null). */
async function rowOf(channel: ChannelDoc): Promise<IntegrationRow> {
  const [checks, last] = await Promise.all([
    Check.countDocuments({ projectId: channel.projectId, channels: channel._id }),
    Notification.findOne({ channelId: channel._id }).sort({ created: -1 }).lean<NotificationDoc>(),
  ]);
  const shown = last ? presentNotification({ notification: last, channel }) : null;
  const badge = !channel.lastNotify ? 'never' : channel.lastError ? 'failed' : 'ok';
  return { channel, json: presentChannelSettings(channel), checks, badge, icon: kindIcon(channel.kind), kindLabel: kindLabel(channel.kind), last: shown && { ...shown, error: forMembers(shown.error, { channelId: channel._id }) } };
}

/** Routes of the integrations page. */
export function integrationsRouter(deps: AppDeps, options: WebOptions, limits: AccountLimits): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const limit = (name: string, points: number, duration: number) => new RateLimiterRedis({ storeClient: deps.redis, points, duration, keyPrefix: `${options.keyPrefix}:${name}` });
  // A refused test costs nothing: the points it took from the limits before the refusing one are given back.
  const testLimits = [
    { limiter: limit('channel-test', 1, TEST_INTERVAL_SECONDS), key: (channel: ChannelDoc) => channel._id, says: `one test per ${TEST_INTERVAL_SECONDS} seconds per integration` },
    { limiter: limit('channel-test-user', TESTS_PER_USER, HOUR_SECONDS), key: (_channel: ChannelDoc, userId: string) => userId, says: `${TESTS_PER_USER} tests an hour per person` },
    { limiter: limit('channel-test-project', TESTS_PER_PROJECT, HOUR_SECONDS), key: (channel: ChannelDoc) => channel.projectId, says: `${TESTS_PER_PROJECT} tests an hour per project` },
  ];
  /** Why a test of `channel` by `userId` may not be sent now, or null after taking a point of each limit. */
  const testRefusal = async (channel: ChannelDoc, userId: string): Promise<string | null> => {
    for (const [i, { limiter, key, says }] of testLimits.entries()) {
      try {
        await limiter.consume(key(channel, userId));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        await Promise.all(testLimits.slice(0, i).map((taken) => taken.limiter.reward(taken.key(channel, userId))));
        return `not sent: ${says}, try again in ${Math.ceil(err.msBeforeNext / 1000)} s`;
      }
    }
    return null;
  };

  router.use(integrationChecksRouter());
  const listPage = async (req: Request, res: Response, extra: { values?: ChannelFormValues; error?: FieldError | null; test?: TestResult; assignAll?: boolean } = {}, status = 200) => {
    const { project, role } = accessOf(res);
    const channels = await Channel.find({ projectId: project._id }).sort({ created: 1, _id: 1 }).lean<ChannelDoc[]>();
    const rows = await Promise.all(channels.map(rowOf));
    const data = { values: channelValuesOf(null), error: null, test: null, assignAll: true, ...extra };
    if (data.error) data.error = new FieldError(data.error.field, forMembers(data.error.message));
    if (data.test) data.test = { ...data.test, text: forMembers(data.test.text, { channelId: data.test.channelId }) };
    const form = channelFormView(data.values, data.error, channels);
    render(req, res, 'integrations', { title: `Integrations · ${project.name}`, tab: 'integrations', project, role, can: CAN, rows, form, directions: DIRECTIONS, ...data }, status);
  };
  const editPage = async (req: Request, res: Response, channel: ChannelDoc, values: ChannelFormValues, error: FieldError | null, status = 200) => {
    const { project, role } = accessOf(res);
    const channels = await Channel.find({ projectId: project._id }).sort({ created: 1, _id: 1 }).lean<ChannelDoc[]>();
    const shownError = error && new FieldError(error.field, forMembers(error.message, { channelId: channel._id }));
    const form = channelFormView(values, shownError, channels, channel._id);
    const assigned = await assignedChecks(channel);
    render(req, res, 'integration-edit', { title: `Edit ${channel.name || kindLabel(channel.kind)}`, tab: 'integrations', project, role, channel, json: presentChannelSettings(channel), values, error: shownError, form, directions: DIRECTIONS, assigned }, status);
  };

  router.get('/projects/:projectId/integrations/', projectAccess('read'), (req, res) => listPage(req, res));
  router.post('/projects/:projectId/integrations/', projectAccess('write'), async (req, res) => {
    const { project } = accessOf(res);
    const values = submittedChannel(req, null);
    const assignAll = ticked(req, 'assign_all');
    if (choosingKind(req)) return listPage(req, res, { values, assignAll });
    try {
      const input = await channelOfForm(project._id, values, null);
      await allowConfirmations(req, limits.confirm, unconfirmedAfter(null, input.kind, input.value));
      const channel = await createChannel({ projectId: project._id, ...input }, deps.clock());
      mailInBackground(options, channel, newAddresses(null, channel), deps.clock());
      const assigned = assignAll ? await assignChannel(channel, 'all', true) : 0;
      const to = assigned === 0 ? 'Integration added; new checks made here get it too.' : `Integration added to ${assigned} check${assigned === 1 ? '' : 's'}.`;
      req.session.notice = assignAll ? to : 'Integration added; no check uses it yet.';
    } catch (err) {
      if (err instanceof FieldError) return listPage(req, res, { values, error: err, assignAll }, 400);
      throw err;
    }
    res.redirect(303, `/projects/${project._id}/integrations/`);
  });

  router.get(`${ONE}edit/`, projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    await editPage(req, res, channel, channelValuesOf(channel), null);
  });
  router.post(ONE, projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    const values = submittedChannel(req, channel);
    if (choosingKind(req)) return editPage(req, res, channel, values, null);
    try {
      const change = await channelOfForm(channel.projectId, values, channel);
      await allowConfirmations(req, limits.confirm, newAddresses(channel, { unconfirmed: unconfirmedAfter(channel, change.kind, change.value) }));
      const updated = await updateChannel(channel, change);
      mailInBackground(options, updated, newAddresses(channel, updated), deps.clock());
    } catch (err) {
      if (err instanceof FieldError) return editPage(req, res, channel, values, err, 400);
      throw err;
    }
    req.session.notice = 'Integration saved.';
    res.redirect(303, `/projects/${channel.projectId}/integrations/`);
  });

  router.get(`${ONE}delete/`, projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    render(req, res, 'integration-delete', { title: `Delete ${channel.name || channel.kind}`, tab: 'integrations', ...accessOf(res), channel });
  });
  router.post(`${ONE}delete`, projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    await deleteChannel(channel._id);
    req.session.notice = `Integration “${channel.name || channel.kind}” deleted.`;
    res.redirect(303, `/projects/${channel.projectId}/integrations/`);
  });

  router.post(`${ONE}test`, projectAccess('write'), async (req, res) => {
    const channel = await channelOfPath(req, res);
    const refused = await testRefusal(channel, currentUser(res)?._id ?? '');
    if (refused) return listPage(req, res, { test: { channelId: channel._id, ok: false, text: refused } }, 429);
    try {
      await sendTestNotification(channel._id);
      await listPage(req, res, { test: { channelId: channel._id, ok: true, text: 'delivered: the provider accepted the test alert' } });
    } catch (err) {
      if (!(err instanceof AppError && err.status === 502)) throw err;
      await listPage(req, res, { test: { channelId: channel._id, ok: false, text: err.message.slice(0, ANSWER_CHARS) } }, 502);
    }
  });
  return router;
}
