/**
 * Push services `ntfy`, `gotify`, `pushover` and `pushbullet`; server URLs and tokens from the channel's settings,
 * else config.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { labelOf, reasonSuffixOf, textOf, titleOf, statusWordOf } from '../message.js';
import { DeliveryError, type Provider } from '../types.js';

/** Settings of an ntfy channel; a plain value is the topic. */
export interface NtfySettings {
  topic: string;
  /** Server root; default `config.ntfyUrl`. */
  url?: string;
  /** 1 (min) to 5 (max) for down alerts; default 5. */
  priority: number;
  /** The same for up alerts; default 3. */
  priority_up: number;
  /** Access token for protected topics. */
  token?: string;
}

const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });
const ntfyPriority = Joi.number().integer().min(1).max(5);

/** The `ntfy` kind. */
export const ntfy: Provider<NtfySettings> = {
  main: 'topic',
  schema: Joi.object({
    topic: Joi.string().pattern(/^[-_A-Za-z0-9]{1,64}$/).required(),
    url: httpUrl,
    priority: ntfyPriority.default(5),
    priority_up: ntfyPriority.default(3),
    token: Joi.string(),
  }),
  async send({ settings, alert, config, signal }) {
    const server = (settings.url ?? config.ntfyUrl).replace(/\/+$/, '');
    await callProvider(
      {
        url: `${server}/`,
        headers: settings.token ? { authorization: `Bearer ${settings.token}` } : {},
        json: {
          topic: settings.topic,
          title: titleOf(alert),
          message: textOf(alert),
          priority: alert.status === 'up' ? settings.priority_up : settings.priority,
          tags: [alert.status === 'up' ? 'green_circle' : 'red_circle'],
          click: alert.detailsUrl,
        },
      },
      { signal, config },
    );
  },
};

/** Settings of a gotify channel; a plain value is `https://server/message?token=APPTOKEN`. */
export interface GotifySettings {
  /** Server root. */
  url: string;
  /** Application token. */
  token: string;
}

/** The `gotify` kind. */
export const gotify: Provider<GotifySettings> = {
  main: 'url',
  schema: Joi.object({ url: httpUrl.required(), token: Joi.string().required() }),
  fromPlain(value) {
    const parsed = URL.canParse(value) ? new URL(value) : null;
    const token = parsed?.searchParams.get('token');
    if (!parsed || !token) return { url: value };
    return { url: `${parsed.origin}${parsed.pathname.replace(/\/?message\/?$/, '')}`, token };
  },
  async send({ settings, alert, config, signal }) {
    await callProvider(
      {
        url: `${settings.url.replace(/\/+$/, '')}/message`,
        headers: { 'x-gotify-key': settings.token },
        json: { title: titleOf(alert), message: textOf(alert), priority: alert.status === 'up' ? 5 : 8 },
      },
      { signal, config },
    );
  },
};

/** Settings of a pushover channel; a plain value is the user (or group) key. */
export interface PushoverSettings {
  user_key: string;
  /** Application token; default `config.pushoverToken`. */
  token?: string;
  /** -2 to 2 for down alerts; default 0. */
  priority: number;
  /** The same for up alerts; default 0. */
  priority_up: number;
}

const pushoverPriority = Joi.number().integer().min(-2).max(2).default(0);
/** Emergency (2) alerts repeat every 300 s until acknowledged, for at most an hour. */
const EMERGENCY = { retry: '300', expire: '3600' };

/** The `pushover` kind (`po` in the reference). */
export const pushover: Provider<PushoverSettings> = {
  main: 'user_key',
  schema: Joi.object({
    user_key: Joi.string().pattern(/^[A-Za-z0-9]{30}$/).required(),
    token: Joi.string(),
    priority: pushoverPriority,
    priority_up: pushoverPriority,
  }),
  async send({ settings, alert, config, signal }) {
    const token = settings.token ?? config.pushoverToken;
    if (!token) throw new DeliveryError('pushover application token is not configured (PUSHOVER_API_TOKEN)', false);
    const priority = alert.status === 'up' ? settings.priority_up : settings.priority;
    await callProvider(
      {
        url: `${config.pushoverApiUrl}/1/messages.json`,
        form: {
          token,
          user: settings.user_key,
          title: titleOf(alert),
          message: textOf(alert),
          priority: String(priority),
          url: alert.detailsUrl,
          url_title: 'View details',
          ...(priority === 2 ? EMERGENCY : {}),
        },
      },
      { signal, config },
    );
  },
};

/** Settings of a pushbullet channel; a plain value is the access token. */
export interface PushbulletSettings {
  /** Access token of the Pushbullet account (Settings, Access Tokens), e.g. `o.` and 32 letters and digits. */
  token: string;
}

/** The `pushbullet` kind: a note pushed to every device of the account, titled with the site's name. */
export const pushbullet: Provider<PushbulletSettings> = {
  main: 'token',
  schema: Joi.object({
    token: Joi.string()
      .pattern(/^[A-Za-z0-9._-]{16,128}$/)
      .required()
      .messages({ 'string.pattern.base': '{{#label}} must be a Pushbullet access token' }),
  }),
  async send({ settings, alert, config, signal }) {
    const body = `The check "${labelOf(alert)}" is ${statusWordOf(alert)}${reasonSuffixOf(alert)}.`;
    await callProvider(
      {
        url: `${config.pushbulletApiUrl}/v2/pushes`,
        headers: { 'access-token': settings.token },
        json: { type: 'note', title: config.siteName, body },
      },
      { signal, config },
    );
  },
};
