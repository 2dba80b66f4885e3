/** Reading a check's ping log (docs/api-reference.md, "Endpoints"). */
import type { CheckDoc } from '../../shared/models/check.js';
import { Ping, type PingDoc } from '../../shared/models/ping.js';
import { pingsInWindow } from '../../shared/pings/window.js';
import type { ProjectDoc } from '../../shared/models/project.js';
import { notFound } from '../../shared/errors.js';
import type { ListedPing } from '../presenters/ping.js';

/** The most pings a list returns, whatever the project's ping log limit (docs/api-reference.md, "Endpoints"). */
const MAX_LISTED_PINGS = 1000;

/** An empty body, which counts as no body (docs/api-reference.md, "Ping object"). */
const EMPTY_BODY = Buffer.alloc(0);

/** The newest `min(ping_log_limit, 1000)` pings of a check, newest first, with `hasBody` instead of bodies. */
export async function listPings(project: ProjectDoc, check: CheckDoc): Promise<ListedPing[]> {
  const limit = Math.min(project.pingLogLimit, MAX_LISTED_PINGS);
  const pings = await pingsInWindow({ checkId: check._id, above: 0, below: check.nPings + 1, size: limit, fields: { body: 0 } });
  if (pings.length === 0) return [];
  const oldest = pings[pings.length - 1].n;
  const withBody = await Ping.find(
    { checkId: check._id, n: { $gte: oldest }, body: { $nin: [null, EMPTY_BODY] } },
    { n: 1 },
  ).lean<Array<Pick<PingDoc, 'n'>>>();
  const hasBody = new Set(withBody.map((ping) => ping.n));
  return pings.map((ping) => ({ ...ping, hasBody: hasBody.has(ping.n) }));
}

/**
 * The stored body of ping number `n`, byte for byte.
 * @throws AppError(404) when `n ≤ n_pings − ping_log_limit`, no ping has that number, or its body is empty.
 */
export async function pingBody(project: ProjectDoc, check: CheckDoc, n: number): Promise<Buffer> {
  if (n <= check.nPings - project.pingLogLimit) throw notFound();
  const ping = await Ping.findOne({ checkId: check._id, n }, { body: 1 });
  if (!ping?.body || ping.body.length === 0) throw notFound();
  return Buffer.from(ping.body);
}
