/**
 * `pagerduty` (Events API v2), `opsgenie` (Alert API) and `pagertree` (incoming webhook): down opens an incident keyed
 * by the check UUID, up resolves it; all deduplicate by that key, so a repeated trigger opens no second incident.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { alertJson, headlineOf, isoSeconds, labelOf, lastPingOf, textOf, titleOf } from '../message.js';
import type { Provider } from '../types.js';

/** Settings of a pagerduty channel; a plain value is the integration (routing) key. */
export interface PagerdutySettings {
  routing_key: string;
}

/** The `pagerduty` kind (`pd` in the reference). */
export const pagerduty: Provider<PagerdutySettings> = {
  main: 'routing_key',
  schema: Joi.object({ routing_key: Joi.string().pattern(/^[A-Za-z0-9]{32}$/).required() }),
  async send({ settings, alert, config, signal }) {
    await callProvider(
      {
        url: `${config.pagerdutyApiUrl}/v2/enqueue`,
        json: {
          routing_key: settings.routing_key,
          event_action: alert.status === 'down' ? 'trigger' : 'resolve',
          dedup_key: alert.checkId,
          payload: {
            summary: titleOf(alert),
            source: labelOf(alert),
            severity: 'critical',
            timestamp: isoSeconds(alert.at),
            custom_details: alertJson(alert),
          },
          links: [{ href: alert.detailsUrl, text: 'View details' }],
        },
      },
      { signal, config },
    );
  },
};

/** Settings of an opsgenie channel; a plain value is the API key. */
export interface OpsgenieSettings {
  key: string;
  /** `us` (default) or `eu`: which Opsgenie API (config) is called. */
  region: 'us' | 'eu';
}

/** Opsgenie's limit on `message`, in characters. */
const MESSAGE_CHARS = 130;

/** The `opsgenie` kind. */
export const opsgenie: Provider<OpsgenieSettings> = {
  main: 'key',
  schema: Joi.object({
    key: Joi.string().pattern(/^[-A-Za-z0-9]{8,64}$/).required(),
    region: Joi.string().valid('us', 'eu').default('us'),
  }),
  async send({ settings, alert, config, signal }) {
    const api = settings.region === 'eu' ? config.opsgenieEuApiUrl : config.opsgenieApiUrl;
    const headers = { authorization: `GenieKey ${settings.key}` };
    if (alert.status === 'up') {
      const alias = encodeURIComponent(alert.checkId);
      await callProvider(
        { url: `${api}/v2/alerts/${alias}/close?identifierType=alias`, headers, json: { note: textOf(alert) } },
        { signal, config },
      );
      return;
    }
    await callProvider(
      {
        url: `${api}/v2/alerts`,
        headers,
        json: {
          alias: alert.checkId,
          message: titleOf(alert).slice(0, MESSAGE_CHARS),
          description: textOf(alert),
          details: { tags: alert.tags, last_ping: lastPingOf(alert), url: alert.detailsUrl },
          tags: alert.tags.split(/\s+/).filter(Boolean),
        },
      },
      { signal, config },
    );
  },
};

/** Settings of a pagertree channel; a plain value is the integration's webhook URL. */
export interface PagertreeSettings {
  /** The PagerTree integration's incoming webhook URL (it carries the integration's secret id). */
  url: string;
}

/** The `pagertree` kind: a trigger (down) or resolve (up) event with a title and description, keyed by check UUID. */
export const pagertree: Provider<PagertreeSettings> = {
  main: 'url',
  schema: Joi.object({ url: Joi.string().uri({ scheme: ['http', 'https'] }).required() }),
  async send({ settings, alert, config, signal }) {
    const lines = [`${headlineOf(alert)}.`];
    if (alert.status === 'down' && alert.lastPing) lines.push(`Last ping was at ${isoSeconds(alert.lastPing)}.`);
    await callProvider(
      {
        url: settings.url,
        json: {
          incident_key: alert.checkId,
          event_type: alert.status === 'down' ? 'trigger' : 'resolve',
          title: headlineOf(alert),
          description: lines.join('\n'),
          client: config.siteName,
          client_url: config.baseUrl,
          tags: alert.tags.split(/\s+/).filter(Boolean).join(' '),
        },
      },
      { signal, config },
    );
  },
};
