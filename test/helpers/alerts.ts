/**
 * Test settings for alert delivery: every provider URL pointed at one local
 * receiver, short timeouts and backoffs, and alert workers on their own
 * Redis connection (so a test can cut it like a dying process would).
 */
import type { Redis } from 'ioredis';
import { config, type NotifyConfig } from '../../shared/config.js';
import { createRedis } from '../../shared/queues/connections.js';
import type { Alert } from '../../shared/notify/types.js';
import { notifyWorkers, type AlertWorkers } from '../../workers/notify.js';
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
    pagerdutyApiUrl: receiverUrl,
    opsgenieApiUrl: receiverUrl,
    opsgenieEuApiUrl: `${receiverUrl}/eu`,
    ntfyUrl: receiverUrl,
    matrixHomeserver: receiverUrl,
    matrixAccessToken: 'matrix-token',
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
    detailsUrl: 'http://localhost:8000/api/v3/checks/7918b17b-a745-4db1-8575-9d2e07c97f79',
    ...overrides,
  };
}

/** Running alert workers and their own connection. */
export interface TestAlertWorkers extends AlertWorkers {
  connection: Redis;
  /** Closes the workers and the connection. */
  stop(force?: boolean): Promise<void>;
}

/**
 * Starts the flips and notify workers against the test Redis and MongoDB,
 * with short locks so a stopped worker's job is taken over quickly.
 */
export function startAlertWorkers(notify: NotifyConfig): TestAlertWorkers {
  const connection = createRedis(testContext().services.redisUrl, 'worker');
  const running = notifyWorkers(connection, {
    clock: () => new Date(),
    config: notify,
    worker: { lockDuration: 1000, stalledInterval: 250, drainDelay: 1 },
  });
  return {
    ...running,
    connection,
    async stop(force = false) {
      await running.close(force);
      connection.disconnect();
    },
  };
}
