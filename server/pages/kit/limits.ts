/**
 * Rate limits of the account forms (the reference's token buckets for logins, extended to sign-up, second factors and
 * mailed links): each attempt
 * counts once per address and once per client (server/proxy.ts: the socket's address, or the one TRUST_PROXY proxies
 * saw), right or wrong, in Redis so every web process shares them.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Request } from 'express';
import type { WebOptions } from './options.js';
import { clientAddressOf } from '../../proxy.js';

/** Sign-in attempts allowed per address per minute. */
export const ATTEMPTS_PER_EMAIL = 5;
/** Sign-in attempts allowed per client per minute. */
export const ATTEMPTS_PER_IP = 20;
/** Sign-ups (an argon2 hash each) allowed per address, and per client, per {@link SIGN_UP_WINDOW_SECONDS}. */
export const SIGN_UPS_PER_EMAIL = 3;
export const SIGN_UPS_PER_IP = 10;
/** Second-factor (and sudo confirmation) attempts allowed per user, and per client, per minute. */
export const FACTOR_TRIES_PER_USER = 5;
export const FACTOR_TRIES_PER_IP = 20;
const SIGN_UP_WINDOW_SECONDS = 600;
/**
 * Mailed links asked for (password reset, sign-in link, address confirmation) per address, and per client, per
 * {@link MAIL_WINDOW_SECONDS}: each sends a mail, so these bound what the site can be made to mail one address.
 */
export const MAILS_PER_EMAIL = 3;
/** Mailed links asked for per client per {@link MAIL_WINDOW_SECONDS}, whatever the address. */
export const MAILS_PER_IP = 10;
const MAIL_WINDOW_SECONDS = 3600;
const SIGN_IN_WINDOW_SECONDS = 60;

/** Counts one attempt of a form for an address (or a user id); true while under both of its limits. */
export type AttemptLimit = (req: Request, who: string) => Promise<boolean>;

/** The account forms' limits. */
export interface AccountLimits {
  signIn: AttemptLimit;
  signUp: AttemptLimit;
  /** A password reset link asked for. */
  reset: AttemptLimit;
  /** A sign-in link asked for. */
  link: AttemptLimit;
  /** An address confirmation mail (a new account address, an email integration's address). */
  confirm: AttemptLimit;
  /** Keyed by user id: a code typed at the second step or to confirm a change, and the password typed to change it or close the account. */
  secondFactor: AttemptLimit;
}

/** Takes one point from `limiter` for `key`; false when none is left. Redis errors propagate (the page answers 500). */
async function take(limiter: RateLimiterRedis, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}

/** Builds the limits over the pages' Redis connection. */
export function accountLimits(redis: Redis, options: WebOptions): AccountLimits {
  const limit = (name: string, perEmail: number, perClient: number, duration: number): AttemptLimit => {
    const byEmail = new RateLimiterRedis({ storeClient: redis, duration, points: perEmail, keyPrefix: `${options.keyPrefix}:${name}-email` });
    const byClient = new RateLimiterRedis({ storeClient: redis, duration, points: perClient, keyPrefix: `${options.keyPrefix}:${name}-ip` });
    return async (req, who) => {
      const client = clientAddressOf(req, options) ?? 'unknown';
      const [clientOk, emailOk] = await Promise.all([take(byClient, client), take(byEmail, who.trim().toLowerCase())]);
      return clientOk && emailOk;
    };
  };
  return {
    signIn: limit('signin', ATTEMPTS_PER_EMAIL, ATTEMPTS_PER_IP, SIGN_IN_WINDOW_SECONDS),
    signUp: limit('signup', SIGN_UPS_PER_EMAIL, SIGN_UPS_PER_IP, SIGN_UP_WINDOW_SECONDS),
    reset: limit('reset', MAILS_PER_EMAIL, MAILS_PER_IP, MAIL_WINDOW_SECONDS),
    link: limit('link', MAILS_PER_EMAIL, MAILS_PER_IP, MAIL_WINDOW_SECONDS),
    confirm: limit('confirm', MAILS_PER_EMAIL, MAILS_PER_IP, MAIL_WINDOW_SECONDS),
    secondFactor: limit('factor', FACTOR_TRIES_PER_USER, FACTOR_TRIES_PER_IP, SIGN_IN_WINDOW_SECONDS),
  };
}
