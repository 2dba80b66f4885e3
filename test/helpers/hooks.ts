/**
 * Mocha root hooks: connect once to MongoDB and Redis for the whole run, and
 * give every test a clean database and Redis.
 */
import mongoose from 'mongoose';
import type { Redis } from 'ioredis';
import { connectDb, disconnectDb } from '../../shared/db.js';
import '../../shared/models/index.js';
import { createRedis } from '../../shared/queues/connections.js';
import { closeQueues, openQueues, type Queues } from '../../shared/queues/index.js';
import { startTestServices, type TestServices } from './services.js';

/** Shared connections of the test run. */
export interface TestContext {
  services: TestServices;
  /** Web-role connection used by the app under test. */
  redis: Redis;
  queues: Queues;
}

let context: TestContext | undefined;

/**
 * The run's connections.
 *
 * @throws Error when called outside a test (before the root hook ran).
 */
export function testContext(): TestContext {
  if (!context) throw new Error('root hooks have not run');
  return context;
}

/** Deletes every document of every collection. */
export async function clearDb(): Promise<void> {
  await Promise.all(Object.values(mongoose.models).map((m) => m.deleteMany({})));
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(120_000);
    const services = await startTestServices(process.env);
    await connectDb(services.mongoUri);
    const redis = createRedis(services.redisUrl, 'worker');
    context = { services, redis, queues: openQueues(redis) };
  },
  async beforeEach(): Promise<void> {
    const { redis } = testContext();
    await Promise.all([clearDb(), redis.flushdb()]);
  },
  async afterAll(): Promise<void> {
    if (!context) return;
    await closeQueues(context.queues);
    context.redis.disconnect();
    await mongoose.connection.dropDatabase();
    await disconnectDb();
    await context.services.stop();
  },
};
