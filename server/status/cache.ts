/**
 * Each web process's cache of status pages (docs/status-pages.md, "Under a crowd"): a page's snapshot and what was rendered from it, kept until a
 * change to the page or to one of its checks arrives on the change stream (shared/status-pages/changes.ts, read twice a second) or it is
 * {@link MAX_AGE_MS} old (maintenance windows begin and end without a flip). Unknown slugs are remembered as such for as long. Concurrent
 * misses of one slug share one computation.
 */
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { Clock } from '../../shared/clock.js';
import { logger } from '../../shared/logger.js';
import { StatusPage, type StatusPageDoc } from '../../shared/models/status-page.js';
import { changesCursor, changesSince } from '../../shared/status-pages/changes.js';
import { computeSnapshot, type Snapshot } from './snapshot.js';

const log = logger.child({ module: 'status-cache' });
/** Milliseconds a cached page is served before it is computed again, whatever the stream says. */
export const MAX_AGE_MS = 15_000;
/** Milliseconds between reads of the change stream. */
const FOLLOW_MS = 500;

/** What a visitor's request is answered from: the published page (without its logo bytes) and its snapshot; null for no such page. */
export interface CachedPage {
  page: Omit<StatusPageDoc, 'logo'> & { logo: StatusPageDoc['logo'] };
  snapshot: Snapshot;
  /** Rendered answers by format (server/status/render.ts). */
  outputs: Map<string, Output>;
  /** Epoch milliseconds when `page` was read from MongoDB. */
  pageRead: number;
}

/** One rendered answer: bytes, their gzip, a strong ETag and the media type. */
export interface Output {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  type: string;
}

interface Entry {
  value: CachedPage | null;
  /** Epoch milliseconds after which it is computed again. */
  expires: number;
  /** Only its checks changed: the next computation reuses the page document (one round trip fewer after a flip). */
  pageCurrent?: boolean;
  /** Epoch milliseconds of the last request it answered. */
  served: number;
}

/** The cache of one web process. */
export class StatusCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 1000 });
  private readonly computing = new Map<string, Promise<CachedPage | null>>();
  private following: Promise<void> | null = null;
  /** Counts invalidations: a computation that saw one begin meanwhile is served once, not kept. */
  private epoch = 0;
  /** Counts the stream's reads that changed a page (or lost track): a list of pages made before the count moved is stale. */
  private pageChanges = 0;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  /**
   * The published page at `slug`, from the cache or computed (one computation however many ask at once).
   * @throws the MongoDB error of a computation.
   */
  async get(slug: string): Promise<CachedPage | null> {
    // Without the stream (Redis down), pages still refresh by age.
    await this.follow().catch((err: unknown) => log.warn({ err }, 'cannot follow status page changes'));
    const entry = this.entries.get(slug);
    if (entry && entry.expires > Date.now()) {
      entry.served = Date.now();
      return entry.value;
    }
    const pending = this.computing.get(slug);
    if (pending) return pending;
    const started = this.epoch;
    const reuse = entry?.pageCurrent && entry.value && Date.now() - entry.value.pageRead < MAX_AGE_MS ? entry.value : undefined;
    const computation = this.compute(slug, reuse).finally(() => this.computing.delete(slug));
    this.computing.set(slug, computation);
    const value = await computation;
    this.entries.set(slug, { value, expires: this.epoch === started ? Date.now() + MAX_AGE_MS : 0, served: Date.now() });
    return value;
  }

  /** How many times pages have changed since this cache began following the stream; it starts following first, as {@link get} does. */
  async pagesChanged(): Promise<number> {
    await this.follow().catch((err: unknown) => log.warn({ err }, 'cannot follow status page changes'));
    return this.pageChanges;
  }

  /** The page read (or `current`'s, read less than {@link MAX_AGE_MS} ago) and its snapshot now. */
  private async compute(slug: string, current?: CachedPage): Promise<CachedPage | null> {
    const pageRead = current?.pageRead ?? Date.now();
    const page = current?.page ?? (await StatusPage.findOne({ slug, published: true }).lean<StatusPageDoc>());
    if (!page) return null;
    return { page, snapshot: await computeSnapshot(page, this.clock()), outputs: new Map(), pageRead };
  }

  /** Starts reading the change stream from its present end, once. */
  private follow(): Promise<void> {
    this.following ??= changesCursor(this.redis).then(
      (start) => {
        let cursor = start;
        let reading = false;
        const timer = setInterval(() => {
          if (reading) return;
          reading = true;
          changesSince(this.redis, cursor)
            .then((read) => {
              cursor = read.cursor;
              const pages = new Set(read.changes.filter((c) => c.kind === 'page').map((c) => c.id));
              if (read.reset || pages.size > 0) this.pageChanges++;
              if (read.reset) return this.invalidate(() => true);
              const checks = read.changes.filter((c) => c.kind === 'check').map((c) => c.id);
              if (pages.size + checks.length === 0) return;
              // A new page or a changed slug may answer a slug remembered as unknown: those go too.
              this.invalidate((value) => (value === null ? pages.size > 0 : pages.has(value.page._id)));
              this.invalidate((value) => value !== null && checks.some((id) => value.snapshot.checkIds.has(id)), true);
            })
            .catch((err: unknown) => log.warn({ err }, 'cannot read status page changes; pages refresh by age'))
            .finally(() => (reading = false));
        }, FOLLOW_MS);
        // The process's life is the server's: the timer never keeps it up.
        timer.unref();
      },
      (err: unknown) => {
        this.following = null;
        throw err;
      },
    );
    return this.following;
  }

  /**
   * Drops the stale entries, or with `pageCurrent` marks them due while keeping their page document and computes again at once those visitors
   * asked for within {@link MAX_AGE_MS}: after a flip, a watched page's next visitor finds it ready (or joins its computation).
   */
  private invalidate(stale: (value: CachedPage | null) => boolean, pageCurrent = false): void {
    this.epoch++;
    for (const [slug, entry] of this.entries.entries()) {
      if (!stale(entry.value)) continue;
      if (!pageCurrent) {
        this.entries.delete(slug);
        continue;
      }
      Object.assign(entry, { expires: 0, pageCurrent: true });
      if (Date.now() - entry.served < MAX_AGE_MS) this.get(slug).catch((err: unknown) => log.warn({ err, slug }, 'cannot compute a status page again; its next visitor will'));
    }
  }
}
