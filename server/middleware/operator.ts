/**
 * Guards operator endpoints (queue dashboard, process metrics) with the admin
 * credential (HTTP Basic) or, where allowed, the metrics token (Bearer).
 */
import type { RequestHandler } from 'express';
import { operatorAllowed, type OperatorSecrets } from '../../shared/ops-auth.js';
import { AppError } from '../../shared/errors.js';

/**
 * Requires the operator's credential.
 *
 * @param secrets - The configured admin credential and metrics token.
 * @param bearer - Whether `Authorization: Bearer <METRICS_TOKEN>` is also accepted.
 * @throws AppError(401) `authentication required`, with a Basic challenge so a browser asks.
 */
export function requireOperator(secrets: OperatorSecrets, bearer: boolean): RequestHandler {
  return (req, res, next) => {
    if (operatorAllowed(req.get('authorization'), secrets, bearer)) return next();
    res.set('WWW-Authenticate', 'Basic realm="hc-monitor", charset="UTF-8"');
    throw new AppError(401, 'authentication required');
  };
}
