/** `apprise`: JSON to an Apprise API notify endpoint (the value): `/notify/<key>`, or `/notify` with `urls`. */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { textOf, titleOf } from '../message.js';
import type { Provider } from '../types.js';

/** Settings of an apprise channel. */
export interface AppriseSettings {
  /** The notify endpoint. */
  url: string;
  /** Apprise service URLs, for the stateless endpoint. */
  urls?: string;
  /** Only notify the stored configuration's services with this tag. */
  tag?: string;
}

/** The `apprise` kind. */
export const apprise: Provider<AppriseSettings> = {
  main: 'url',
  schema: Joi.object({
    url: Joi.string().uri({ scheme: ['http', 'https'] }).required(),
    urls: Joi.string(),
    tag: Joi.string(),
  }),
  async send({ settings, alert, config, signal }) {
    await callProvider(
      {
        url: settings.url,
        json: {
          title: titleOf(alert),
          body: textOf(alert),
          type: alert.status === 'up' ? 'success' : 'failure',
          format: 'text',
          ...(settings.urls ? { urls: settings.urls } : {}),
          ...(settings.tag ? { tag: settings.tag } : {}),
        },
      },
      { signal, config },
    );
  },
};
