/**
 * Builders for test data and a supertest client bound to a fresh app.
 */
import { randomUUID } from 'node:crypto';
import { PingJournal } from '../../shared/pings/journal.js';
import { config } from '../../shared/config.js';
import supertest from 'supertest';
import { createWebHandler } from '../../server/app.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { createProject, type NewProject, type ProjectInput } from '../../shared/services/projects.js';
import type { Clock } from '../../shared/clock.js';
import { testContext } from './hooks.js';

/** A project with its plain keys. */
export type TestProject = NewProject;

/** Creates a project (name `test` unless given). */
export async function buildProject(input: Partial<ProjectInput> = {}): Promise<TestProject> {
  return createProject({ name: 'test', ...input });
}

/** Inserts a check straight into MongoDB with defaults (docs/checks.md, "A new check"). */
export async function buildCheck(project: TestProject, fields: Partial<CheckDoc> = {}): Promise<CheckDoc> {
  const check = await Check.create({
    _id: randomUUID(),
    projectId: project.project._id,
    badgeKey: randomUUID(),
    created: new Date(),
    ...fields,
  });
  return check.toObject();
}

/** Inserts a channel. */
export async function buildChannel(project: TestProject, fields: Partial<ChannelDoc> = {}): Promise<ChannelDoc> {
  const channel = await Channel.create({
    _id: randomUUID(),
    projectId: project.project._id,
    kind: 'email',
    value: 'alerts@example.org',
    created: new Date(),
    ...fields,
  });
  return channel.toObject();
}

/**
 * A supertest agent on a new app using the run's connections, with a ping
 * journal as the web process has (its lease is not renewed: nothing replays it).
 * With `trustProxy` hops, the proxy is the loopback peer supertest connects from (TRUSTED_PROXIES `loopback`).
 */
export function http(clock?: Clock, trustProxy?: number): supertest.Agent {
  const { redis, queues } = testContext();
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  const trustedProxies = trustProxy ? ['loopback'] : [];
  return supertest.agent(createWebHandler({ clock: clock ?? (() => new Date()), redis, queues, journal, trustProxy, trustedProxies }));
}
