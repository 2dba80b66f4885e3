/**
 * What the pages phase's measurements share (pages.ts runs them): the stage they are given, and timing a page over
 * HTTP with the stage's session.
 */

/** What the pages bench phase gives each measurement: a web process, a signed-in session, its project. */
export interface PagesStage {
  origin: string;
  cookie: string;
  projectId: string;
  out: (line: string) => void;
  /** Requests timed per page (`--page-requests`). */
  requests: number;
}

/** One page's figures: server time p50/p95 in milliseconds over `count` requests, and the answer's size in bytes. */
export interface PageTiming {
  count: number;
  p50Ms: number;
  p95Ms: number;
  bytes: number;
  status: number;
}

/**
 * GETs `path` `count` (the stage's `requests` unless given) times one after another with the stage's session (after one untimed request), timing each to
 * the end of its body.
 *
 * @param headers - Added to each request (e.g. `if-none-match`).
 * @throws Error when an answer's status is not `expect` (200 unless given).
 */
export async function timePage(stage: PagesStage, path: string, count = stage.requests, headers: Record<string, string> = {}, expect = 200): Promise<PageTiming> {
  const get = async (): Promise<{ ms: number; bytes: number; status: number }> => {
    const begin = process.hrtime.bigint();
    const res = await fetch(stage.origin + path, { headers: { cookie: stage.cookie, ...headers }, redirect: 'manual' });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = Number(process.hrtime.bigint() - begin) / 1e6;
    if (res.status !== expect) throw new Error(`pages: GET ${path} answered ${res.status}, not ${expect}`);
    return { ms, bytes: body.length, status: res.status };
  };
  await get();
  const samples: number[] = [];
  let last = { bytes: 0, status: 0 };
  for (let i = 0; i < count; i++) {
    const one = await get();
    samples.push(one.ms);
    last = one;
  }
  samples.sort((a, b) => a - b);
  const rank = (p: number): number => Math.round(samples[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)] * 10) / 10;
  return { count, p50Ms: rank(50), p95Ms: rank(95), bytes: last.bytes, status: last.status };
}

/** A table row of {@link PageTiming}: `| what | requests | p50 | p95 | bytes |`. */
export function timingRow(what: string, t: PageTiming): string {
  return `| ${what} | ${t.count} | ${t.p50Ms} | ${t.p95Ms} | ${t.bytes.toLocaleString('en')} |`;
}

