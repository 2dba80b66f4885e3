/** Guards operator endpoints with the admin credential (Basic) or, where allowed, the metrics token (Bearer). */
import type { RequestHandler } from 'express';
import { operatorAllowed, type OperatorSecrets } from '../../shared/ops-auth.js';
import { AppError } from '../../shared/errors.js';

/**
 * Requires the admin credential or, with `bearer`, also `Authorization: Bearer <METRICS_TOKEN>`.
 * @throws AppError(401) `authentication required`, with a Basic challenge so a browser asks.
 */
export function requireOperator(secrets: OperatorSecrets, bearer: boolean): RequestHandler {
  return (req, res, next) => {
    if (operatorAllowed(req.get('authorization'), secrets, bearer)) return next();
    res.set('WWW-Authenticate', 'Basic realm="hc-monitor", charset="UTF-8"');
    throw new AppError(401, 'authentication required');
  };
}
