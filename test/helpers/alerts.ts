/**
 * Test settings for alert delivery: every provider URL pointed at one local
 * receiver, short timeouts and backoffs, and alert workers on their own
 * Redis connection (so a test can cut it like a dying process would).
 */
import type { Worker } from 'bullmq';
import { systemClock } from '../../shared/clock.js';
import { config, type NotifyConfig } from '../../shared/config.js';
import { createRedis } from '../../shared/queues/connections.js';
import type { Alert } from '../../shared/notify/types.js';
import type { WorkerDeps, WorkerFactory } from '../../shared/queues/deps.js';
import { notifyWorker } from '../../shared/alerts/notify.js';
import { testContext } from './hooks.js';

/**
 * Alert settings for tests.
 *
 * @param receiverUrl - Base URL every provider API points at.
 * @param overrides - Anything else to change.
 */
export function testNotifyConfig(receiverUrl: string, overrides: Partial<NotifyConfig> = {}): NotifyConfig {
  return {
    ...config.notify,
    smtpUrl: 'smtp://127.0.0.1:9',
    fromEmail: 'alerts@hc.test',
    attemptTimeoutMs: 1000,
    attempts: 3,
    backoffMs: 20,
    telegramApiUrl: receiverUrl,
    telegramToken: '123456:test-bot-token',
    pushoverApiUrl: receiverUrl,
    pushoverToken: 'app-token',
    pushbulletApiUrl: receiverUrl,
    pagerdutyApiUrl: receiverUrl,
    opsgenieApiUrl: receiverUrl,
    opsgenieEuApiUrl: `${receiverUrl}/eu`,
    ntfyUrl: receiverUrl,
    matrixHomeserver: receiverUrl,
    matrixAccessToken: 'matrix-token',
    trelloApiUrl: receiverUrl,
    trelloAppKey: 'trello-app-key',
    githubApiUrl: receiverUrl,
    twilioApiUrl: receiverUrl,
    twilioAccount: 'AC123',
    twilioAuth: 'secret',
    twilioFrom: '+15550000000',
    ...overrides,
  };
}

/** A down alert of a check named `backup`, last pinged at 2024-05-01 12:00:30.5 UTC. */
export function sampleAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 'b1946ac9-2f3e-4d5f-8a6b-7c8d9e0f1a2b',
    checkId: '7918b17b-a745-4db1-8575-9d2e07c97f79',
    name: 'backup',
    tags: 'prod db',
    desc: 'nightly dump',
    status: 'down',
    reason: 'timeout',
    at: new Date('2024-05-01T13:01:00.250Z'),
    lastPing: new Date('2024-05-01T12:00:30.500Z'),
    detailsUrl: 'http://localhost:8000/projects/5f0c7e54-3c1d-4f7a-9a42-1b8e2d6c0a11/checks/7918b17b-a745-4db1-8575-9d2e07c97f79/',
    updateUrl: 'http://localhost:8000/api/v3/checks/7918b17b-a745-4db1-8575-9d2e07c97f79',
    ...overrides,
  };
}

/** Running alert workers on their own connection. */
export interface TestAlertWorkers {
  workers: Worker[];
  /**
   * Closes the workers and their connection.
   *
   * @param force - Do not wait for active jobs, as when a process dies.
   */
  stop(force?: boolean): Promise<void>;
}

/** BullMQ settings of test workers: short locks, so a stopped worker's job is taken over quickly (milliseconds). */
export const TEST_WORKER_OPTIONS = { lockDuration: 1000, stalledInterval: 250, drainDelay: 1 };

/**
 * Starts the notify worker (and any `extra` ones) against the test
 * Redis and MongoDB.
 *
 * @param notify - Alert settings (see {@link testNotifyConfig}).
 * @param extra - Other workers to run alongside, e.g. the deadline worker.
 */
export function startAlertWorkers(notify: NotifyConfig, ...extra: WorkerFactory[]): TestAlertWorkers {
  const connection = createRedis(testContext().services.redisUrl, 'worker');
  const deps: WorkerDeps = {
    connection,
    queues: testContext().queues,
    clock: systemClock,
    settings: { deadlineConcurrency: 10, sweepIntervalMs: 60_000 },
    notify,
  };
  const workers: Worker[] = [notifyWorker(deps, TEST_WORKER_OPTIONS), ...extra.map((build) => build(deps))];
  return {
    workers,
    async stop(force = false) {
      await Promise.all(workers.map((worker) => worker.close(force)));
      connection.disconnect();
    },
  };
}
