/**
 * Recording a flip the way the event path does, for tests that start from a
 * flip: the change's outbox entry is pushed onto the check, then completed
 * (flip, notifications, notify jobs).
 */
import { config, type NotifyConfig } from '../../shared/config.js';
import { Check, type CheckDoc } from '../../shared/models/check.js';
import type { FlipChange } from '../../shared/domain/status.js';
import { completeOwed } from '../../shared/alerts/outbox.js';
import { owedFlip } from '../../shared/checks/store.js';
import { testContext } from './hooks.js';

/**
 * Owes and completes a flip of `check`.
 *
 * @param check - The check as stored (its status and channels decide the alerts).
 * @param notify - Retry settings of the notify jobs.
 * @returns The flip's id.
 */
export async function recordTestFlip(check: CheckDoc, change: FlipChange, notify: NotifyConfig = config.notify): Promise<string> {
  const now = new Date();
  const entry = owedFlip(change, now, now);
  await Check.updateOne({ _id: check._id }, { $push: { outbox: entry } });
  await completeOwed({ queues: testContext().queues, notify }, [{ check, entry }], now);
  return String(entry._id);
}
