/**
 * The account area: sign-in (password, a link by mail, two-factor, security keys, OpenID Connect, a proxy's header),
 * sign-up, recovery, sessions, the email change, display settings, the account page and its reports.
 */
import type { PageArea, PageContext } from '../kit/area.js';
import { UserSessions } from './sessions.js';
import { oidcRouter, remoteUser } from './sso.js';
import { accountDisplayRouter } from './account-display.js';
import { accountRouter } from './account.js';
import { twoFactorRouter } from './two-factor.js';
import { securityKeysRouter } from './security-keys.js';
import { accountPageRouter } from './account-page.js';
import { recoveryRouter } from './recovery.js';
import { emailChangeRouter } from './email-change.js';
import { reportsRouter, reportsUnsubscribeRouter } from './reports.js';

/** One list of sessions per app (every route and the per-request touch share it). */
const sessionsByContext = new WeakMap<PageContext, UserSessions>();

/** The app's {@link UserSessions}. */
function sessionsOf(ctx: PageContext): UserSessions {
  let sessions = sessionsByContext.get(ctx);
  if (sessions === undefined) {
    sessions = new UserSessions(ctx.deps.redis, ctx.options);
    sessionsByContext.set(ctx, sessions);
  }
  return sessions;
}

/** The account area: its pages, the session's last-seen time and a proxy's sign-in on every page, the reports' one-click unsubscribe. */
export const accountArea: PageArea = {
  everyPage: (ctx) => {
    const sessions = sessionsOf(ctx);
    return [sessions.touch(ctx.deps.clock), remoteUser(ctx.options, sessions, ctx.deps.clock)];
  },
  pages: (ctx) => {
    const { deps, options, limits } = ctx;
    const sessions = sessionsOf(ctx);
    return [
      oidcRouter(options, sessions, limits, deps.clock),
      accountDisplayRouter(sessions),
      accountRouter(options, limits, sessions, deps.clock),
      twoFactorRouter(options, sessions, limits, deps.clock),
      securityKeysRouter(options, deps.clock),
      accountPageRouter(sessions, limits, deps.redis, deps.clock),
      recoveryRouter(options, limits, sessions, deps.clock),
      emailChangeRouter(options, limits, sessions, deps.clock),
      reportsRouter(options, deps.clock),
    ];
  },
  open: (ctx) => [reportsUnsubscribeRouter(ctx.options, ctx.deps.clock)],
};
