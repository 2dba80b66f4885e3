/**
 * The web app under test (server/pages): a supertest agent keeping its cookies, the form's CSRF token, users and
 * members made directly.
 */
import supertest from 'supertest';
import { PingJournal } from '../../shared/pings/journal.js';
import { config } from '../../shared/config.js';
import { createWebHandler } from '../../server/app.js';
import type { WebOptions } from '../../server/pages/kit/options.js';
import { createUser } from '../../shared/services/users.js';
import { addMember } from '../../shared/services/members.js';
import type { UserDoc } from '../../shared/models/user.js';
import type { Role } from '../../shared/models/membership.js';
import type { Clock } from '../../shared/clock.js';
import { testContext } from './hooks.js';

/** A password that passes the length rule. */
export const PASSWORD = 'correct horse battery';

/**
 * The pages' settings of the test run, with `overrides`. With `trustProxy` hops and no `trustedProxies`, the proxy is
 * the loopback peer supertest connects from (TRUSTED_PROXIES `loopback`).
 */
export function webOptions(overrides: Partial<WebOptions> = {}): WebOptions {
  return {
    trustedProxies: overrides.trustProxy ? ['loopback'] : [],
    secretKey: config.secretKey,
    registrationOpen: false,
    baseUrl: config.baseUrl,
    keyPrefix: `${config.queuePrefix}:web`,
    trustProxy: 0,
    sso: { oidc: null, remoteUserHeader: null, passwordSignIn: true },
    smtpUrl: config.notify.smtpUrl,
    fromEmail: config.notify.fromEmail,
    ...overrides,
  };
}

/** A supertest agent (cookies kept) on a new app with the pages' `overrides`. */
export function webAgent(overrides: Partial<WebOptions> = {}, clock?: Clock): supertest.Agent {
  const { redis, queues } = testContext();
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  const web = webOptions(overrides);
  return supertest.agent(createWebHandler({ clock: clock ?? (() => new Date()), redis, queues, journal, web }));
}

/** The CSRF token in a page's first form. @throws Error when the page has none. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1];
}

/** The CSRF token of the agent's session (from the sign-in page, or `path`). */
export async function tokenOf(agent: supertest.Agent, path = '/signin/'): Promise<string> {
  return csrfOf((await agent.get(path)).text);
}

/** Creates a user with {@link PASSWORD}. */
export async function buildUser(email: string): Promise<UserDoc> {
  const user = await createUser(email, PASSWORD, new Date());
  if (!user) throw new Error(`${email} exists`);
  return user;
}

/** Makes `user` a member of the project with `role`. */
export async function join(projectId: string, user: UserDoc, role: Role): Promise<void> {
  await addMember(projectId, user._id, role, new Date());
}

/** Signs the agent in; returns the response to the sign-in POST. */
export async function signIn(agent: supertest.Agent, email: string, password = PASSWORD): Promise<supertest.Response> {
  const _csrf = await tokenOf(agent);
  return agent.post('/signin/').type('form').send({ _csrf, email, password });
}
