/** What every BullMQ worker of the worker process is built from. */
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Config, NotifyConfig } from '../config.js';
import type { Queues } from './index.js';

/** Connections and settings a worker needs. */
export interface WorkerDeps {
  /** Worker-role Redis connection (`createRedis(url, 'worker')`); BullMQ duplicates it for its blocking reads and never closes it. */
  connection: Redis;
  /** Producer handles (a deadline reschedules itself; a timeout flip adds its notify jobs). */
  queues: Queues;
  clock: Clock;
  /** With `recoveryIntervalMs` (the worker process passes the config), the worker also runs the recovery passes (shared/deadlines/recover.ts). */
  settings: Pick<Config, 'deadlineConcurrency' | 'sweepIntervalMs'> & Partial<Pick<Config, 'recoveryIntervalMs'>>;
  /** Alert delivery settings of the notify worker and the sweep; default `config.notify`. */
  notify?: NotifyConfig;
}

/** Builds one running BullMQ worker; the worker process starts one per factory. */
export type WorkerFactory = (deps: WorkerDeps) => Worker;
