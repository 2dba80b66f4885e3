/**
 * Process metrics (prom-client): Node's defaults, BullMQ queue depths, ping and alert latency histograms; one registry
 * per process, served at `METRICS_PATH` (web) or on `WORKER_METRICS_PORT` (worker).
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QueueName } from './queues/names.js';
import { bullOptions } from './queues/index.js';
import { logger } from './logger.js';

const log = logger.child({ module: 'metrics' });

/** The process's metrics registry. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Job states whose counts `hc_queue_jobs` reports. */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/** Queue handles read at each scrape; filled by {@link trackQueueDepths}. */
const trackedQueues = new Set<Queue>();

// Registered in `registry`; its collect() reads the tracked queues at each scrape.
new Gauge({
  name: 'hc_queue_jobs',
  help: 'Jobs in each BullMQ queue, by state (waiting, delayed, active, failed).',
  labelNames: ['queue', 'state'],
  registers: [registry],
  async collect() {
    this.reset();
    await Promise.all(
      [...trackedQueues].map(async (queue) => {
        try {
          const counts = await queue.getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        } catch (err) {
          // A scrape while Redis is away reports no depths rather than failing whole.
          log.warn({ err, queue: queue.name }, 'cannot read queue depth');
        }
      }),
    );
  },
});

const pingSeconds = new Histogram({
  name: 'hc_ping_duration_seconds',
  help: 'Time to answer a Pinging API request, from its arrival to the end of the response, in seconds.',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const alertSeconds = new Histogram({
  name: 'hc_alert_latency_seconds',
  help: "Time from a flip's moment to the provider accepting its alert, in seconds.",
  buckets: [0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

/** Records one ping request's time in seconds, from its arrival to the end of its response. */
export function observePingSeconds(seconds: number): void {
  pingSeconds.observe(seconds);
}

/** Records one alert's latency in seconds, from the flip's `created` to the provider accepting the alert. */
export function observeAlertSeconds(seconds: number): void {
  alertSeconds.observe(seconds);
}

/** Stops reporting the queues one {@link trackQueueDepths} call opened. */
export interface QueueDepthTracking {
  close(): Promise<void>;
}

/** Reports every queue's depth from now on, read on `connection` (left open by `close()`) per scrape; once per process. */
export function trackQueueDepths(connection: Redis): QueueDepthTracking {
  const queues = Object.values(QueueName).map((name) => new Queue(name, bullOptions(connection)));
  for (const queue of queues) trackedQueues.add(queue);
  return {
    async close() {
      for (const queue of queues) trackedQueues.delete(queue);
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}

/** The registry's metrics in the Prometheus text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
