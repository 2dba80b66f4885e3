/**
 * Operator endpoints: process metrics at `METRICS_PATH` (admin or `METRICS_TOKEN`) and bull-board at
 * {@link QUEUE_DASHBOARD_PATH} (admin), each mounted only when a credential that opens it is set.
 */
import { Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { OpsConfig } from '../../shared/config-ops.js';
import { queueList, type Queues } from '../../shared/queues/index.js';
import { metricsText } from '../../shared/metrics.js';
import { requireOperator } from '../middleware/operator.js';

/** Where the queue dashboard is mounted. */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** The operator router for `ops` (`config.ops` unless a test passes its own); the dashboard shows `queues`. */
export function opsRouter(ops: OpsConfig, queues: Queues): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const secrets = { admin: ops.admin, metricsToken: ops.metricsToken };
  if (ops.admin || ops.metricsToken) {
    router.get(ops.metricsPath, requireOperator(secrets, true), async (_req, res) => {
      const { contentType, body } = await metricsText();
      res.status(200).setHeader('Content-Type', contentType);
      res.end(body);
    });
  }
  if (ops.admin) {
    const board = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: queueList(queues).map((queue) => new BullMQAdapter(queue)),
      serverAdapter: board,
    });
    // @bull-board/express types getRouter() as `any`; it is an express Router.
    router.use(QUEUE_DASHBOARD_PATH, requireOperator(secrets, false), board.getRouter() as Router);
  }
  return router;
}
