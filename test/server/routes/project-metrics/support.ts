/**
 * Shared bits of the per-project metrics tests: a project whose read-only key
 * is a known 32-character string (as the reference's tests set "R" * 32), and
 * an app with chosen operations settings.
 */
import supertest from 'supertest';
import { createWebHandler } from '../../../../server/app.js';
import { loadConfig } from '../../../../shared/config.js';
import type { OpsConfig } from '../../../../shared/config-ops.js';
import { Project } from '../../../../shared/models/project.js';
import { hashApiKey } from '../../../../shared/services/projects.js';
import { buildProject, type TestProject } from '../../../helpers/factories.js';
import { testContext } from '../../../helpers/hooks.js';
import type { Clock } from '../../../../shared/clock.js';

/** The read-only key the reference's metrics tests use. */
export const READONLY_KEY = 'R'.repeat(32);

/** A project whose read-only key is `key`. */
export async function projectWithReadonlyKey(key: string = READONLY_KEY): Promise<TestProject> {
  const project = await buildProject();
  await Project.updateOne({ _id: project.project._id }, { apiKeyReadonlyHash: hashApiKey(key) });
  return { ...project, apiKeyReadonly: key };
}

/** Operations settings built from `env` the way the service builds them. */
export function opsOf(env: Record<string, string> = {}): OpsConfig {
  return loadConfig(env).ops;
}

/** A supertest agent on an app with `ops` (default: the defaults) and `clock`. */
export function appWith(ops: OpsConfig = opsOf(), clock: Clock = () => new Date()): supertest.Agent {
  const { redis, queues } = testContext();
  return supertest.agent(createWebHandler({ clock, redis, queues, ops }));
}
