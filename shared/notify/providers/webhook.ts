/**
 * `webhook`: a plain URL gets the alert POSTed as JSON; the JSON form mirrors the reference's per-direction templates
 * (docs/alerts.md, Channel values). A direction without a URL sends nothing. A late warning (docs/alerting-rules.md) uses the `_late` template when
 * given, else the `_down` one, with `$STATUS` = `late`.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { alertJson, isoSeconds } from '../message.js';
import type { Alert, AlertStatus, Provider } from '../types.js';

/** One direction's request template. */
interface WebhookSpec {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Settings of a webhook channel. */
export interface WebhookSettings {
  /** Simple mode: POST the alert as JSON to this URL. */
  url?: string;
  method_down?: string;
  url_down?: string;
  headers_down?: Record<string, string>;
  body_down?: string;
  method_up?: string;
  url_up?: string;
  headers_up?: Record<string, string>;
  body_up?: string;
  method_late?: string;
  url_late?: string;
  headers_late?: Record<string, string>;
  body_late?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const url = Joi.string().uri({ scheme: ['http', 'https'] });
const method = Joi.string().uppercase().valid(...METHODS);
const headers = Joi.object().pattern(Joi.string().pattern(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/), Joi.string().allow(''));

const schema = Joi.object({
  url,
  method_down: method,
  url_down: url.allow(''),
  headers_down: headers,
  body_down: Joi.string().allow(''),
  method_up: method,
  url_up: url.allow(''),
  headers_up: headers,
  body_up: Joi.string().allow(''),
  method_late: method,
  url_late: url.allow(''),
  headers_late: headers,
  body_late: Joi.string().allow(''),
})
  .or('url', 'url_down', 'url_up')
  .oxor('url', 'url_down')
  .oxor('url', 'url_up')
  .messages({
    'object.missing': 'a webhook needs url, or url_down and/or url_up',
    'object.oxor': 'a webhook takes either url or url_down/url_up',
  });

function specOf(settings: WebhookSettings, direction: AlertStatus, alert: Alert): WebhookSpec | null {
  if (settings.url) {
    return { method: 'POST', url: settings.url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(alertJson(alert)) };
  }
  const status = alert.event === 'late' && settings.url_late ? 'late' : direction;
  const target = settings[`url_${status}`];
  if (!target) return null;
  const body = settings[`body_${status}`] ?? '';
  return { method: settings[`method_${status}`] ?? (body ? 'POST' : 'GET'), url: target, headers: settings[`headers_${status}`] ?? {}, body };
}

/**
 * Fills `$NAME`-style variables, each value passed through `encode`, in one pass (a value holding `$NAME` stays
 * as is), longest names first so `$NAME_JSON` is not read as `$NAME`.
 */
export function fillTemplate(template: string, alert: Alert, encode: (v: string) => string = (v) => v): string {
  const vars: Record<string, string> = {
    CODE: alert.checkId,
    STATUS: alert.event === 'late' ? 'late' : alert.status,
    NOW: isoSeconds(alert.at),
    NAME: alert.name,
    TAGS: alert.tags,
    DESC: alert.desc,
    NAME_JSON: JSON.stringify(alert.name),
    TAGS_JSON: JSON.stringify(alert.tags),
    DESC_JSON: JSON.stringify(alert.desc),
    JSON: JSON.stringify(alertJson(alert)),
  };
  alert.tags.split(/\s+/).filter(Boolean).forEach((tag, i) => (vars[`TAG${i + 1}`] = tag));
  const names = Object.keys(vars).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`\\$(${names.join('|')})`, 'g');
  return template.replace(pattern, (_m, name: string) => encode(vars[name] ?? ''));
}

/** Header values may not carry line breaks (they would start a new header). */
function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** The `webhook` kind. */
export const webhook: Provider<WebhookSettings> = {
  main: 'url',
  schema,
  sendsOn: (settings, status) => Boolean(settings.url || settings[`url_${status}`]),
  async send({ settings, alert, config, signal }) {
    const spec = specOf(settings, alert.status, alert);
    if (!spec) return;
    // The same key on every retry of one alert, another for each alert: a receiver drops repeats (unless the channel sets its own).
    const headers: Record<string, string> = Object.keys(spec.headers).some((name) => name.toLowerCase() === 'idempotency-key') ? {} : { 'Idempotency-Key': alert.id };
    for (const [name, value] of Object.entries(spec.headers)) headers[name] = headerSafe(fillTemplate(value, alert));
    const withBody = spec.method !== 'GET' && spec.body !== '';
    await callProvider(
      {
        method: spec.method,
        url: fillTemplate(spec.url, alert, encodeURIComponent),
        headers,
        body: withBody ? (settings.url ? spec.body : fillTemplate(spec.body, alert)) : undefined,
      },
      { signal, config },
    );
  },
};
