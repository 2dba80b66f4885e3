/**
 * Who may read a password-protected status page (docs/status-pages.md): a visitor who typed its password holds a cookie for that page, an HMAC
 * of the page's id and password hash under SECRET_KEY, so a new password ends every such visit. Attempts are limited per client and page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { StatusPageDoc } from '../../shared/models/status-page.js';
import type { WebOptions } from '../pages/kit/options.js';
import { clientAddressOf, schemeOf } from '../proxy.js';

/** Password attempts allowed per client per page per minute. */
export const PASSWORD_TRIES = 10;
/** Seconds a visit with the password lasts. */
const VISIT_SECONDS = 30 * 24 * 3600;

/** The cookie's name for a page. */
function cookieName(pageId: string): string {
  return `hc_status_${pageId.replaceAll('-', '')}`;
}

/** The page's access cookies and attempt limit. */
export class StatusAccess {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly options: WebOptions,
  ) {
    this.limiter = new RateLimiterRedis({ storeClient: redis, duration: 60, points: PASSWORD_TRIES, keyPrefix: `${options.keyPrefix}:status-password` });
  }

  /** Whether the request may read the page: always, unless it has a password and the request lacks its cookie. */
  allows(req: Request, page: Pick<StatusPageDoc, '_id' | 'visibility' | 'passwordHash'>): boolean {
    if (page.visibility !== 'password') return true;
    const given = parseCookies(req.headers.cookie ?? '')[cookieName(page._id)];
    const want = Buffer.from(this.tokenOf(page));
    // Lengths in bytes: a cookie of as many characters, some not ASCII, is longer, and timingSafeEqual throws on unequal lengths.
    return given !== undefined && Buffer.byteLength(given) === want.length && timingSafeEqual(Buffer.from(given), want);
  }

  /** Counts an attempt; false when the client has used up its tries for this page. @throws the Redis error. */
  async attempt(req: Request, pageId: string): Promise<boolean> {
    try {
      await this.limiter.consume(`${pageId}:${clientAddressOf(req, this.options) ?? 'unknown'}`);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }

  /** Gives the visitor the page's cookie, for its path only. */
  grant(req: Request, res: Response, page: Pick<StatusPageDoc, '_id' | 'slug' | 'passwordHash'>): void {
    const secure = schemeOf(req, this.options) === 'https';
    res.append('Set-Cookie', serialize(cookieName(page._id), this.tokenOf(page), { path: `/status/${page.slug}/`, httpOnly: true, sameSite: 'lax', secure, maxAge: VISIT_SECONDS }));
  }

  private tokenOf(page: Pick<StatusPageDoc, '_id' | 'passwordHash'>): string {
    return createHmac('sha256', this.options.secretKey).update(`status-page:${page._id}:${page.passwordHash ?? ''}`).digest('base64url');
  }
}
