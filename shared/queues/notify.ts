/** Jobs of the `notify` queue: one per (flip, channel), under a fixed id so a repeated fan-out or the sweep never adds a second one. */
import type { JobsOptions } from 'bullmq';
import type { NotifyConfig } from '../config.js';

/** The job id of a flip's delivery through a channel; never contains `:` (the ids are hex and UUIDs). */
export function notifyJobId(flipId: string, channelId: string): string {
  return `notify-${flipId}-${channelId}`;
}

/** Options of a notify job: fixed id, `config.attempts` attempts, exponential backoff from `config.backoffMs` (first retry delay, milliseconds). */
export function notifyJobOptions(config: Pick<NotifyConfig, 'attempts' | 'backoffMs'>, flipId: string, channelId: string): JobsOptions {
  return {
    jobId: notifyJobId(flipId, channelId),
    attempts: config.attempts,
    backoff: { type: 'exponential', delay: config.backoffMs },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}
