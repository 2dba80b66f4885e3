/** Alert delivery settings (docs/alerts.md); shared/config.ts validates them. */
import Joi from 'joi';

/** Alert delivery: SMTP, provider base URLs (tests point them at local receivers), fallback credentials, retries. */
export interface NotifyConfig {
  /** smtp:// or smtps:// URL of the relay that sends alert emails. */
  readonly smtpUrl: string;
  /** From address of alert emails. */
  readonly fromEmail: string;
  /** Site root used in alert messages' detail links; no trailing slash. */
  readonly baseUrl: string;
  /** The service's name (SITE_NAME) where a message names its sender (pushbullet title, pagertree client, calls). */
  readonly siteName: string;
  /** SECRET_KEY: signs the unsubscribe and address confirmation links of email channels. */
  readonly secretKey: string;
  /** Per-attempt delivery timeout, milliseconds. */
  readonly attemptTimeoutMs: number;
  /** Delivery attempts per (flip, channel) before giving up. */
  readonly attempts: number;
  /** First retry delay, milliseconds; doubles per attempt. */
  readonly backoffMs: number;
  /** Provider requests a worker makes at once, notify jobs and the deadline worker's alerts together (docs/alerts.md, "Configuration"). */
  readonly concurrency: number;
  /** Whether provider requests may reach non-public addresses (INTEGRATIONS_ALLOW_PRIVATE_IPS, default false). */
  readonly allowPrivateIps: boolean;
  /** Whether `shell` channels may run their commands on the worker (SHELL_ENABLED, default false). */
  readonly shellEnabled: boolean;
  readonly telegramApiUrl: string;
  /** Bot token used when a telegram channel names none. */
  readonly telegramToken: string;
  readonly pushoverApiUrl: string;
  /** Application token used when a pushover channel names none. */
  readonly pushoverToken: string;
  readonly pushbulletApiUrl: string;
  readonly pagerdutyApiUrl: string;
  readonly opsgenieApiUrl: string;
  readonly opsgenieEuApiUrl: string;
  readonly ntfyUrl: string;
  readonly matrixHomeserver: string;
  /** Access token used when a matrix channel names none. */
  readonly matrixAccessToken: string;
  readonly trelloApiUrl: string;
  /** Trello application key used when a trello channel names none; without either trello alerts fail. */
  readonly trelloAppKey: string;
  /** REST API of GitHub (or GitHub Enterprise Server's `https://host/api/v3`) where `github` channels open issues. */
  readonly githubApiUrl: string;
  /** Base URL of the Twilio-compatible API used by `sms`, `whatsapp`, `signal` (Messages) and `call` (Calls). */
  readonly twilioApiUrl: string;
  readonly twilioAccount: string;
  readonly twilioAuth: string;
  /** Sender number (E.164) used when a channel names none. */
  readonly twilioFrom: string;
}

const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });

/** The alert settings' variables as the environment schema returns them: converted, defaults applied. */
export interface NotifyEnv {
  readonly SMTP_URL: string;
  readonly DEFAULT_FROM_EMAIL: string;
  readonly NOTIFY_TIMEOUT_MS: number;
  readonly NOTIFY_ATTEMPTS: number;
  readonly NOTIFY_BACKOFF_MS: number;
  readonly NOTIFY_CONCURRENCY: number;
  readonly INTEGRATIONS_ALLOW_PRIVATE_IPS: boolean;
  readonly SHELL_ENABLED: boolean;
  readonly TELEGRAM_API_URL: string;
  readonly TELEGRAM_TOKEN: string;
  readonly PUSHOVER_API_URL: string;
  readonly PUSHOVER_API_TOKEN: string;
  readonly PUSHBULLET_API_URL: string;
  readonly PAGERDUTY_API_URL: string;
  readonly OPSGENIE_API_URL: string;
  readonly OPSGENIE_EU_API_URL: string;
  readonly NTFY_URL: string;
  readonly MATRIX_HOMESERVER: string;
  readonly MATRIX_ACCESS_TOKEN: string;
  readonly TRELLO_API_URL: string;
  readonly TRELLO_APP_KEY: string;
  readonly GITHUB_API_URL: string;
  readonly TWILIO_API_URL: string;
  readonly TWILIO_ACCOUNT: string;
  readonly TWILIO_AUTH: string;
  readonly TWILIO_FROM: string;
}

/** Joi keys of the alert settings ({@link NotifyEnv}), merged into the environment schema. */
export const notifySchemaKeys = {
  SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }).default('smtp://127.0.0.1:25'),
  DEFAULT_FROM_EMAIL: Joi.string().email({ tlds: false }).default('alerts@localhost'),
  NOTIFY_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  NOTIFY_ATTEMPTS: Joi.number().integer().min(1).default(5),
  NOTIFY_BACKOFF_MS: Joi.number().integer().min(10).default(5000),
  NOTIFY_CONCURRENCY: Joi.number().integer().min(1).default(50),
  INTEGRATIONS_ALLOW_PRIVATE_IPS: Joi.boolean().truthy('1').falsy('0').default(false),
  SHELL_ENABLED: Joi.boolean().truthy('1').falsy('0').default(false),
  TELEGRAM_API_URL: httpUrl.default('https://api.telegram.org'),
  TELEGRAM_TOKEN: Joi.string().allow('').default(''),
  PUSHOVER_API_URL: httpUrl.default('https://api.pushover.net'),
  PUSHOVER_API_TOKEN: Joi.string().allow('').default(''),
  PUSHBULLET_API_URL: httpUrl.default('https://api.pushbullet.com'),
  PAGERDUTY_API_URL: httpUrl.default('https://events.pagerduty.com'),
  OPSGENIE_API_URL: httpUrl.default('https://api.opsgenie.com'),
  OPSGENIE_EU_API_URL: httpUrl.default('https://api.eu.opsgenie.com'),
  NTFY_URL: httpUrl.default('https://ntfy.sh'),
  MATRIX_HOMESERVER: httpUrl.default('https://matrix.org'),
  MATRIX_ACCESS_TOKEN: Joi.string().allow('').default(''),
  TRELLO_API_URL: httpUrl.default('https://api.trello.com'),
  TRELLO_APP_KEY: Joi.string().allow('').default(''),
  GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  TWILIO_API_URL: httpUrl.default('https://api.twilio.com'),
  TWILIO_ACCOUNT: Joi.string().allow('').default(''),
  TWILIO_AUTH: Joi.string().allow('').default(''),
  TWILIO_FROM: Joi.string().allow('').default(''),
};

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The alert settings from the Joi-validated environment; `baseUrl` has no trailing slash; `siteName` is SITE_NAME; `secretKey` SECRET_KEY. */
export function notifyConfigOf(value: NotifyEnv, baseUrl: string, siteName: string, secretKey: string): NotifyConfig {
  return {
    smtpUrl: value.SMTP_URL,
    fromEmail: value.DEFAULT_FROM_EMAIL,
    baseUrl,
    siteName,
    secretKey,
    attemptTimeoutMs: value.NOTIFY_TIMEOUT_MS,
    attempts: value.NOTIFY_ATTEMPTS,
    backoffMs: value.NOTIFY_BACKOFF_MS,
    concurrency: value.NOTIFY_CONCURRENCY,
    allowPrivateIps: value.INTEGRATIONS_ALLOW_PRIVATE_IPS,
    shellEnabled: value.SHELL_ENABLED,
    telegramApiUrl: trimSlash(value.TELEGRAM_API_URL),
    telegramToken: value.TELEGRAM_TOKEN,
    pushoverApiUrl: trimSlash(value.PUSHOVER_API_URL),
    pushoverToken: value.PUSHOVER_API_TOKEN,
    pushbulletApiUrl: trimSlash(value.PUSHBULLET_API_URL),
    pagerdutyApiUrl: trimSlash(value.PAGERDUTY_API_URL),
    opsgenieApiUrl: trimSlash(value.OPSGENIE_API_URL),
    opsgenieEuApiUrl: trimSlash(value.OPSGENIE_EU_API_URL),
    ntfyUrl: trimSlash(value.NTFY_URL),
    matrixHomeserver: trimSlash(value.MATRIX_HOMESERVER),
    matrixAccessToken: value.MATRIX_ACCESS_TOKEN,
    trelloApiUrl: trimSlash(value.TRELLO_API_URL),
    trelloAppKey: value.TRELLO_APP_KEY,
    githubApiUrl: trimSlash(value.GITHUB_API_URL),
    twilioApiUrl: trimSlash(value.TWILIO_API_URL),
    twilioAccount: value.TWILIO_ACCOUNT,
    twilioAuth: value.TWILIO_AUTH,
    twilioFrom: value.TWILIO_FROM,
  };
}
