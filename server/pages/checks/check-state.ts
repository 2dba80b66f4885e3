/**
 * A check's state in words for its page, live: "up, last ping 3 minutes ago", "running, started 2 minutes ago",
 * "late, last ping 2 hours ago", "down since 5 minutes ago", "paused", "new, never pinged". Statuses as the API's
 * (docs/checks.md, "Status", server/presenters/check.ts); times relative to the request's clock.
 */
import type { CheckDoc } from '../../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../../shared/models/flip.js';
import { liveStatus, type LiveStatus } from '../../../shared/domain/status.js';
import type { PageTimes } from '../kit/times.js';

/** The live status and the sentence that says it. */
export interface CheckState {
  status: LiveStatus;
  words: string;
}

/** When the check last went down (its newest flip into `down`, the `checkId, created` index), null if never. */
async function downSince(checkId: string): Promise<Date | null> {
  const flip = await Flip.findOne({ checkId, newStatus: 'down' }, { created: 1 }).sort({ created: -1 }).lean<FlipDoc>();
  return flip?.created ?? null;
}

/** The sentence of `status`, given when the check went down. */
export function stateWords(check: CheckDoc, status: LiveStatus, wentDown: Date | null, times: PageTimes): string {
  const lastPing = check.lastPing ? `last ping ${times.relative(check.lastPing)}` : 'never pinged';
  if (status === 'paused') return 'paused';
  if (status === 'down') return wentDown ? `down since ${times.relative(wentDown)}` : 'down';
  if (check.lastStart) return `running, started ${times.relative(check.lastStart)}`;
  if (status === 'new') return `new, ${lastPing}`;
  return `${status === 'grace' ? 'late' : 'up'}, ${lastPing}`;
}

/** The check's live status at `times.now` and its sentence. */
export async function checkState(check: CheckDoc, times: PageTimes): Promise<CheckState> {
  const status = liveStatus(check, times.now);
  const wentDown = status === 'down' ? await downSince(check._id) : null;
  return { status, words: stateWords(check, status, wentDown, times) };
}
