/**
 * Shared bits of the Management API route tests: a client that sends an API
 * key, a fixed clock, and the field sets of the Check object.
 */
import type supertest from 'supertest';
import { http } from '../../helpers/factories.js';
import type { Clock } from '../../../shared/clock.js';

/** The base URL the test environment configures (test/helpers/env.ts). */
export const BASE_URL = 'http://localhost:8000';

/** A fixed moment for tests that read live status or timestamps. */
export const NOW = new Date('2020-06-01T12:00:00.000Z');

/** A clock stuck at `at`. */
export function fixedClock(at: Date = NOW): Clock {
  return () => at;
}

/** Requests to the API with `X-Api-Key: key` (no header when key is undefined). */
export interface ApiClient {
  get(path: string): supertest.Test;
  post(path: string, body?: object): supertest.Test;
  delete(path: string): supertest.Test;
}

/**
 * A client for `/api/v3` paths.
 *
 * @param key - Sent as `X-Api-Key`; omitted when undefined.
 * @param clock - The app's clock (default: real time).
 */
export function api(key: string | undefined, clock?: Clock): ApiClient {
  return apiAt(3, key, clock);
}

/**
 * A client for `/api/v<version>` paths.
 *
 * @param version - 1, 2 or 3.
 * @param key - Sent as `X-Api-Key`; omitted when undefined.
 * @param clock - The app's clock (default: real time).
 */
export function apiAt(version: 1 | 2 | 3, key: string | undefined, clock?: Clock): ApiClient {
  const agent = http(clock);
  const prefix = `/api/v${version}`;
  const withKey = (req: supertest.Test): supertest.Test => (key === undefined ? req : req.set('X-Api-Key', key));
  return {
    get: (path) => withKey(agent.get(`${prefix}${path}`)),
    post: (path, body) => (body === undefined ? withKey(agent.post(`${prefix}${path}`)) : withKey(agent.post(`${prefix}${path}`)).send(body)),
    delete: (path) => withKey(agent.delete(`${prefix}${path}`)),
  };
}

/** Check fields every key sees, in the reference's order (docs/api-reference.md, "Check object"). */
export const COMMON_FIELDS = [
  'name', 'slug', 'tags', 'desc', 'grace', 'n_pings', 'status', 'started', 'last_ping', 'next_ping',
  'manual_resume', 'methods', 'subject', 'subject_fail', 'start_kw', 'success_kw', 'failure_kw',
  'filter_subject', 'filter_body', 'filter_http_body', 'filter_default_fail', 'badge_url',
];

/** Fields only a read-write key sees. */
export const READ_WRITE_FIELDS = ['uuid', 'ping_url', 'update_url', 'pause_url', 'resume_url', 'channels'];
