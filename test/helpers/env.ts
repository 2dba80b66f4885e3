/**
 * Loaded by mocha before anything else (see .mocharc.json): test settings must
 * be in `process.env` before `shared/config.ts` reads it.
 */
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
process.env.TEST_MIN_PERIOD_SECONDS ??= '1';
process.env.BASE_URL ??= 'http://localhost:8000';
process.env.SECRET_KEY ??= 'test-secret';
process.env.QUEUE_PREFIX ??= `hc_test_${process.pid}`;
// Alert tests deliver to receivers on 127.0.0.1; the refusal itself is tested with the flag off.
process.env.INTEGRATIONS_ALLOW_PRIVATE_IPS ??= 'true';
