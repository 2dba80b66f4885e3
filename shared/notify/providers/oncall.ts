/**
 * On-call services reached through an integration URL (the value): `spike` (Spike.sh) and `victorops` (Splunk
 * On-Call's REST endpoint). Each alert carries the check UUID, which both use to pair a recovery with its incident.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { causeOf, labelOf, lastPingOf, statusWordOf } from '../message.js';
import type { Alert, Provider } from '../types.js';
import type { ChatSettings } from './chat.js';

const schema = Joi.object({ url: Joi.string().uri({ scheme: ['http', 'https'] }).required() });
/** The monitoring tool Splunk On-Call shows (the reference's SITE_NAME). */
const MONITORING_TOOL = 'hc-monitor';

/** `backup is DOWN (the expected ping did not arrive in time)`; the cause only when the flip has a reason. */
function headline(alert: Alert): string {
  return `${labelOf(alert)} is ${statusWordOf(alert)}${alert.reason ? ` (${causeOf(alert)})` : ''}`;
}

/** The `spike` kind: POSTs `check_id`, `title`, `message` and `status` (`up`/`down`) as JSON. */
export const spike: Provider<ChatSettings> = {
  main: 'url',
  schema,
  async send({ settings, alert, config, signal }) {
    const lines = [`${headline(alert)}.`];
    if (alert.status === 'down' && alert.lastPing) lines.push(`Last ping was ${lastPingOf(alert)}.`);
    await callProvider(
      {
        url: settings.url,
        json: { check_id: alert.checkId, title: headline(alert), message: lines.join('\n'), status: alert.status },
      },
      { signal, config },
    );
  },
};

/**
 * The `victorops` kind (Splunk On-Call): a `CRITICAL` message on down and a `RECOVERY` on up, both with the check
 * UUID as `entity_id`. A 404 means the integration URL is gone: the channel is disabled, as in the reference.
 */
export const victorops: Provider<ChatSettings> = {
  main: 'url',
  schema,
  async send({ settings, alert, config, signal }) {
    const down = alert.status === 'down';
    await callProvider(
      {
        url: settings.url,
        json: {
          entity_id: alert.checkId,
          message_type: down ? 'CRITICAL' : 'RECOVERY',
          entity_display_name: labelOf(alert),
          state_message: down ? `${headline(alert)}.` : `${labelOf(alert)} is UP.`,
          monitoring_tool: MONITORING_TOOL,
        },
        permanentOn: [404],
      },
      { signal, config },
    );
  },
};
