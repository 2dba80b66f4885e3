/**
 * Auto-provisioning for slug pings with `create=1` (docs/pinging.md, "Recording a ping"). Slugs are not unique, so two first-run pings arriving together could
 * each create a check and leave the slug ambiguous (409) for good: a short Redis lock per (project, slug) serialises the creators, and the holder
 * looks the slug up again before creating. If Redis is away the creation goes ahead unlocked.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { Channel } from '../../shared/models/channel.js';
import type { Clock } from '../../shared/clock.js';
import { logger } from '../../shared/logger.js';

const log = logger.child({ module: 'ping-provision' });
/** The lock expires by itself after this many milliseconds, should its holder die. */
const LOCK_TTL_MS = 10_000;
/** Pause between attempts to take a busy lock, in milliseconds. */
const LOCK_RETRY_MS = 20;
/** Attempts before going ahead unlocked (about 5 s in all). */
const LOCK_ATTEMPTS = 250;
/** Deletes the lock only if we still hold it. */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/** Dependencies of {@link provisionCheck}. */
export interface ProvisionDeps {
  clock: Clock;
  /** The web process's connection (fails fast when Redis is away). */
  redis: Redis;
}

/** The project fields provisioning reads; auto-provisioning may go up to twice `checkLimit`. */
export interface ProvisionProject {
  _id: string;
  checkLimit: number;
}

/** A check to ping, and whether this request created it. */
export interface Provisioned {
  check: CheckDoc | null;
  created: boolean;
}

/**
 * Finds or creates the check with a lowercase `slug` in the ping key's project: name and slug set to the slug, the defaults of a new check (docs/checks.md, "A new check"), and
 * all the project's channels.
 * @returns The check (`created` true when made here); `check` null when the project already has 2 × `checkLimit` checks; `ambiguous` when several
 *   checks with the slug appeared meanwhile.
 * @throws the driver's error when MongoDB fails.
 */
export async function provisionCheck(deps: ProvisionDeps, project: ProvisionProject, slug: string): Promise<Provisioned | 'ambiguous'> {
  const release = await lock(deps.redis, `ping-create-${project._id}-${slug}`);
  try {
    const existing = await Check.find({ projectId: project._id, slug }).limit(2).lean<CheckDoc[]>();
    if (existing.length > 1) return 'ambiguous';
    if (existing.length === 1) return { check: existing[0], created: false };
    if ((await Check.countDocuments({ projectId: project._id })) >= 2 * project.checkLimit) {
      return { check: null, created: false };
    }
    const channels = await Channel.find({ projectId: project._id }, { _id: 1 }).sort({ created: 1 }).lean();
    const check = await Check.create({
      _id: randomUUID(),
      projectId: project._id,
      name: slug,
      slug,
      badgeKey: randomUUID(),
      channels: channels.map((c) => c._id),
      created: deps.clock(),
    });
    return { check: check.toObject(), created: true };
  } finally {
    await release();
  }
}

/** Takes the lock `key`, waiting while another request holds it; returns a function releasing it, a no-op when the lock could not be used. */
async function lock(redis: Redis, key: string): Promise<() => Promise<void>> {
  const token = randomUUID();
  for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
    let taken: string | null;
    try {
      taken = await redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX');
    } catch (err) {
      log.warn({ err, key }, 'cannot lock auto-provisioning; going ahead unlocked');
      return async () => {};
    }
    if (taken === 'OK') {
      return async () => {
        await redis.eval(RELEASE_SCRIPT, 1, key, token).catch((err: unknown) => log.warn({ err, key }, 'cannot unlock'));
      };
    }
    await sleep(LOCK_RETRY_MS);
  }
  log.warn({ key }, 'auto-provisioning lock still busy; going ahead unlocked');
  return async () => {};
}
