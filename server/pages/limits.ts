/**
 * Sign-in rate limits (the reference's token buckets for logins): per address and per client IP, counted in Redis so
 * every web process shares them. Every attempt counts, right or wrong.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Request } from 'express';
import type { WebOptions } from './options.js';

/** Sign-in attempts allowed per address per minute. */
export const ATTEMPTS_PER_EMAIL = 5;
/** Sign-in attempts allowed per client IP per minute. */
export const ATTEMPTS_PER_IP = 20;
const WINDOW_SECONDS = 60;

/** Counts one sign-in attempt; true while under both limits. */
export type SignInLimiter = (req: Request, email: string) => Promise<boolean>;

/** The client's address: the last X-Forwarded-For hop (added by our proxy) when trusted, else the socket's. */
function clientIp(req: Request, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.get('x-forwarded-for')?.split(',').pop()?.trim() : undefined;
  return forwarded || req.socket.remoteAddress || 'unknown';
}

/** Builds the limiter over the pages' Redis connection. Redis errors propagate (the page answers 500). */
export function signInLimiter(redis: Redis, options: WebOptions): SignInLimiter {
  const common = { storeClient: redis, duration: WINDOW_SECONDS };
  const byEmail = new RateLimiterRedis({ ...common, points: ATTEMPTS_PER_EMAIL, keyPrefix: `${options.keyPrefix}:signin-email` });
  const byIp = new RateLimiterRedis({ ...common, points: ATTEMPTS_PER_IP, keyPrefix: `${options.keyPrefix}:signin-ip` });
  const consume = async (limiter: RateLimiterRedis, key: string): Promise<boolean> => {
    try {
      await limiter.consume(key);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  };
  return async (req, email) => {
    const [ipOk, emailOk] = await Promise.all([consume(byIp, clientIp(req, options.trustProxy)), consume(byEmail, email.trim().toLowerCase())]);
    return ipOk && emailOk;
  };
}
