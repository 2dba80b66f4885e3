/**
 * Public status pages (docs/status-pages.md): `/status/<slug>/` and its JSON, Atom feed, badge and logo, without sign-in or session, answered
 * from each process's cache (server/status/cache.ts) with ETags and caching headers a CDN or reverse proxy can follow; `/status/` lists the
 * public (listed) ones. A password-protected page asks for its password first.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import argon2 from 'argon2';
import type { AppDeps } from '../deps.js';
import { StatusPage } from '../../shared/models/status-page.js';
import { SLUG_RE } from '../../shared/domain/status-page.js';
import { PAGE_HEADERS, renderShared } from '../pages/kit/render.js';
import type { WebOptions } from '../pages/kit/options.js';
import { StatusCache, MAX_AGE_MS, type CachedPage, type Output } from './cache.js';
import { FORMATS, logoOf, outputOf, type Format } from './render.js';
import { StatusAccess } from './access.js';

/** What a shared cache may do: keep a page a second (a flip shows within 2 s), then ask again with its ETag. */
const PUBLIC_CACHE = 'public, max-age=0, s-maxage=1';

/** Sends `output` (gzip when accepted), or 304 when the client holds it. */
function sendOutput(req: Request, res: Response, output: Output, cacheControl: string): void {
  res.set(PAGE_HEADERS).set({ 'Cache-Control': cacheControl, ETag: output.etag, Vary: 'Accept-Encoding' });
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const gzip = output.gzip !== output.body && /\bgzip\b/.test(req.get('accept-encoding') ?? '');
  if (gzip) res.set('Content-Encoding', 'gzip');
  res.type(output.type).send(gzip ? output.gzip : output.body);
}

/** Sends a page the same for everyone, not cached unless `cacheControl` says (the password form, a missing page, the list). */
function sendPage(res: Response, status: number, view: string, data: Record<string, unknown>, cacheControl = PAGE_HEADERS['Cache-Control']): void {
  res.status(status).set(PAGE_HEADERS).set('Cache-Control', cacheControl).type('html').send(renderShared(view, data));
}

/** The status pages' routes: mounted before everything else, as they take the crowds. */
export function statusRouter(deps: AppDeps, options: WebOptions, cache = new StatusCache(deps.redis, deps.clock)): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const access = new StatusAccess(deps.redis, options);
  let listed: { at: number; changes: number; pages: unknown[] } | null = null;

  router.get('/status/', async (_req, res) => {
    // A page edit (a new title, made unlisted) shows at once, as on the page itself.
    const changes = await cache.pagesChanged();
    if (!listed || listed.changes !== changes || Date.now() - listed.at > MAX_AGE_MS) {
      listed = { at: Date.now(), changes, pages: await StatusPage.find({ published: true, visibility: 'public' }, { slug: 1, title: 1, description: 1 }).sort({ title: 1 }).limit(1000).lean() };
    }
    sendPage(res, 200, 'status-index', { pages: listed.pages }, PUBLIC_CACHE);
  });

  /** The cached page at the path's slug, or a 404 answered in the format asked for. */
  const pageOf = async (req: Request, res: Response, format: Format | 'logo'): Promise<CachedPage | null> => {
    const slug = String(req.params.slug);
    const cached = SLUG_RE.test(slug) ? await cache.get(slug) : null;
    if (cached && access.allows(req, cached.page)) return cached;
    const status = cached ? 403 : 404;
    if (format === 'html') sendPage(res, status, cached ? 'status-password' : 'status-missing', { url: `/status/${slug}/` });
    else res.status(status).set(PAGE_HEADERS).json({ error: cached ? 'this status page needs its password: open it in a browser' : 'not found' });
    return null;
  };
  const cacheControlOf = (cached: CachedPage) => (cached.page.visibility === 'password' ? 'private, no-cache' : PUBLIC_CACHE);

  for (const [format, { path }] of Object.entries(FORMATS) as [Format, (typeof FORMATS)[Format]][]) {
    router.get(`/status/:slug/${path}`, async (req, res) => {
      const cached = await pageOf(req, res, format);
      if (!cached) return;
      if (cached.page.visibility !== 'public') res.set('X-Robots-Tag', 'noindex');
      if (format !== 'html' && cached.page.visibility !== 'password') res.set('Access-Control-Allow-Origin', '*');
      sendOutput(req, res, outputOf(cached, format, options.baseUrl), cacheControlOf(cached));
    });
  }
  router.get('/status/:slug/logo', async (req, res) => {
    const cached = await pageOf(req, res, 'logo');
    const logo = cached && logoOf(cached);
    if (cached && !logo) res.status(404).set(PAGE_HEADERS).json({ error: 'this status page has no logo' });
    else if (cached && logo) sendOutput(req, res, logo, cacheControlOf(cached));
  });
  router.get('/status/:slug', (req, res) => res.redirect(301, `/status/${encodeURIComponent(String(req.params.slug))}/`));

  router.post('/status/:slug/', express.urlencoded({ extended: false, limit: '4 KB' }), async (req, res) => {
    const slug = String(req.params.slug);
    const cached = SLUG_RE.test(slug) ? await cache.get(slug) : null;
    const url = `/status/${slug}/`;
    if (!cached || cached.page.visibility !== 'password') return void res.redirect(303, url);
    if (!(await access.attempt(req, cached.page._id))) return sendPage(res, 429, 'status-password', { url, error: 'Too many attempts: wait a minute, then try again.' });
    const password = typeof (req.body as Record<string, unknown> | undefined)?.password === 'string' ? String((req.body as Record<string, string>).password) : '';
    const right = password !== '' && cached.page.passwordHash !== null && (await argon2.verify(cached.page.passwordHash, password).catch(() => false));
    if (!right) return sendPage(res, 403, 'status-password', { url, error: 'Wrong password: try again.' });
    access.grant(req, res, cached.page);
    res.redirect(303, url);
  });
  // An address that does not decode (`/status/%ff/`) names no page: the same 404 page as an unknown one.
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' && (err as { status?: unknown } | null)?.status === 400) return sendPage(res, 404, 'status-missing', {});
    next(err);
  });
  return router;
}
