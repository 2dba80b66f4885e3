/**
 * A user's sessions (docs/web-app.md, "Account"): each sign-in records its session id in a Redis set per user,
 * with the device (User-Agent), client address, sign-in time and last request time (updated at most once a minute)
 * in the session itself. The account page lists them, ends one, or all but the current one; closing an account ends
 * them all. A session id is a bearer secret: pages name a session by an HMAC of it, never the id itself.
 */
import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Request, RequestHandler, Response } from 'express';
import type { SessionData, Store } from 'express-session';
import type { WebOptions } from '../kit/options.js';
import { SESSION_TTL_MS } from '../kit/session.js';
import { clientAddressOf } from '../../proxy.js';

/** How long a sign-in or a confirmation lets sensitive changes go without asking again (sudo mode), milliseconds. */
export const SUDO_MS = 10 * 60_000;
/** Longest a session's last request time may lag, milliseconds: a write per request would cost every page a round trip. */
const SEEN_EVERY_MS = 60_000;
/** Characters of the User-Agent kept as the device. */
const DEVICE_CHARS = 200;

/** A session as the account page lists it. */
export interface SessionView {
  /** HMAC of the session id: what the page's forms send back. */
  id: string;
  device: string;
  ip: string;
  /** Sign-in and last request. */
  since: Date | null;
  seen: Date | null;
  current: boolean;
}

/** The sessions of users, over the pages' Redis and session store. */
export class UserSessions {
  constructor(
    private readonly redis: Redis,
    private readonly options: WebOptions,
  ) {}

  private keyOf(userId: string): string {
    return `${this.options.keyPrefix}:user-sessions:${userId}`;
  }

  private idOf(sid: string): string {
    return createHmac('sha256', this.options.secretKey).update(`session:${sid}`).digest('base64url').slice(0, 22);
  }

  /**
   * Starts a new session (a new id: no fixation) for the user, in sudo mode, listed among their sessions.
   * @throws the session store's error.
   */
  async signIn(req: Request, user: { _id: string; sessionEpoch?: number | null }, now: Date): Promise<void> {
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
    req.session.userId = user._id;
    req.session.epoch = user.sessionEpoch ?? 0;
    req.session.sudoUntil = now.getTime() + SUDO_MS;
    await this.add(req, user._id, now);
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err as Error) : resolve())));
  }

  /** Records the request's new session (just signed in) for its user, with its device and address. */
  private async add(req: Request, userId: string, now: Date): Promise<void> {
    req.session.device = (req.get('user-agent') ?? '').slice(0, DEVICE_CHARS);
    req.session.ip = clientAddressOf(req, this.options) ?? '';
    req.session.since = req.session.seen = now.getTime();
    const key = this.keyOf(userId);
    await this.redis.multi().sadd(key, req.sessionID).pexpire(key, SESSION_TTL_MS).exec();
  }

  /** The user's live sessions, the current one first, then by last request; ids of ended ones are dropped from the set. */
  async list(req: Request, userId: string): Promise<SessionView[]> {
    const key = this.keyOf(userId);
    const sids = await this.redis.smembers(key);
    const found = await Promise.all(sids.map(async (sid) => [sid, await this.get(req.sessionStore, sid)] as const));
    const gone = found.filter(([, data]) => data?.userId !== userId || data.epoch !== req.session.epoch).map(([sid]) => sid);
    if (gone.length > 0) await this.redis.srem(key, ...gone);
    const time = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));
    return found
      .filter(([sid]) => !gone.includes(sid))
      .map(([sid, data]) => ({ id: this.idOf(sid), device: data?.device ?? '', ip: data?.ip ?? '', since: time(data?.since), seen: time(data?.seen), current: sid === req.sessionID }))
      .sort((a, b) => Number(b.current) - Number(a.current) || (b.seen?.getTime() ?? 0) - (a.seen?.getTime() ?? 0));
  }

  /**
   * Ends the user's sessions whose page id is in `ids` (never the current one; every other one when `ids` is
   * `'others'`; every one when `'all'`, the caller then destroying the current one with `req.session.destroy`).
   * @returns How many were ended.
   */
  async end(req: Request, userId: string, ids: string[] | 'others' | 'all'): Promise<number> {
    const key = this.keyOf(userId);
    const chosen = (await this.redis.smembers(key)).filter((sid) =>
      ids === 'all' ? true : sid !== req.sessionID && (ids === 'others' || ids.includes(this.idOf(sid))),
    );
    await Promise.all(chosen.map((sid) => new Promise<void>((resolve, reject) => req.sessionStore.destroy(sid, (err) => (err ? reject(err as Error) : resolve())))));
    if (chosen.length > 0) await this.redis.srem(key, ...chosen);
    return chosen.length;
  }

  private get(store: Store, sid: string): Promise<SessionData | null | undefined> {
    return new Promise((resolve, reject) => store.get(sid, (err, data) => (err ? reject(err as Error) : resolve(data))));
  }

  /**
   * Notes a signed-in request's time in its session at most once per {@link SEEN_EVERY_MS}, and keeps the user's set
   * of sessions as long as the sessions it lists (each lives {@link SESSION_TTL_MS} from its last request).
   */
  touch(now: () => Date): RequestHandler {
    return async (req: Request, res: Response, next) => {
      const ms = now().getTime();
      const userId = req.session?.userId;
      if (res.locals.user && userId && ms - (req.session.seen ?? 0) >= SEEN_EVERY_MS) {
        req.session.seen = ms;
        await this.redis.pexpire(this.keyOf(userId), SESSION_TTL_MS);
      }
      next();
    };
  }
}
