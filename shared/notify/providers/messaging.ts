/** Bot messengers: `telegram` (Bot API `sendMessage`), `matrix` (`m.room.message`); tokens from the channel or config. */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { causeOf, escapeHtml, lastPingOf, textOf, titleOf } from '../message.js';
import { DeliveryError, type Alert, type Provider } from '../types.js';

/** The alert as Telegram/Matrix HTML. */
function htmlOf(alert: Alert): string {
  const lines = [
    `<b>${escapeHtml(titleOf(alert))}</b>: ${escapeHtml(causeOf(alert))}.`,
    `Last ping: ${escapeHtml(lastPingOf(alert))}.`,
  ];
  if (alert.tags.trim()) lines.push(`Tags: ${escapeHtml(alert.tags.trim())}`);
  lines.push(`<a href="${escapeHtml(alert.detailsUrl)}">View details</a>`);
  return lines.join('\n');
}

/** Settings of a telegram channel; a plain value is the chat id. */
export interface TelegramSettings {
  /** Numeric chat id, or `@channelusername`. */
  chat_id: string | number;
  /** Bot token; default `config.telegramToken`. */
  token?: string;
  /** Forum topic to post in. */
  thread_id?: number;
}

/** The `telegram` kind. A 403 (bot blocked or removed from the chat) disables the channel. */
export const telegram: Provider<TelegramSettings> = {
  main: 'chat_id',
  schema: Joi.object({
    chat_id: Joi.alternatives(Joi.string().pattern(/^(-?\d{1,20}|@\w{5,32})$/), Joi.number().integer()).required(),
    token: Joi.string().pattern(/^\d+:[\w-]+$/),
    thread_id: Joi.number().integer().min(1),
  }),
  async send({ settings, alert, config, signal }) {
    const token = settings.token ?? config.telegramToken;
    if (!token) throw new DeliveryError('telegram bot token is not configured (TELEGRAM_TOKEN)', false);
    await callProvider(
      {
        url: `${config.telegramApiUrl}/bot${token}/sendMessage`,
        json: {
          chat_id: settings.chat_id,
          ...(settings.thread_id ? { message_thread_id: settings.thread_id } : {}),
          text: htmlOf(alert),
          parse_mode: 'HTML',
          disable_web_page_preview: true,
        },
        permanentOn: [403],
      },
      { signal, config },
    );
  },
};

/** Settings of a matrix channel; a plain value is the room id. */
export interface MatrixSettings {
  /** `!opaque:server`. */
  room_id: string;
  /** Default `config.matrixHomeserver`; when given, `access_token` must be too. */
  homeserver?: string;
  /** Default `config.matrixAccessToken`, which goes only to `config.matrixHomeserver`. */
  access_token?: string;
}

/** Why a channel's own homeserver without its own token is refused: the server's token goes to the server's homeserver only. */
const OWN_TOKEN = 'a homeserver of your own needs its own access_token (the server’s MATRIX_ACCESS_TOKEN goes only to MATRIX_HOMESERVER)';

/**
 * The `matrix` kind. The transaction id is the notification's id, so a retry
 * of an attempt whose answer was lost is deduplicated by the homeserver. The server's MATRIX_ACCESS_TOKEN is sent
 * only to MATRIX_HOMESERVER: a channel naming another homeserver carries its own token, so the server's token never goes to a host a member typed.
 */
export const matrix: Provider<MatrixSettings> = {
  main: 'room_id',
  schema: Joi.object({
    room_id: Joi.string().pattern(/^!\S+:\S+$/).required(),
    homeserver: Joi.string().uri({ scheme: ['http', 'https'] }),
    access_token: Joi.string().when('homeserver', { is: Joi.exist(), then: Joi.required().messages({ 'any.required': OWN_TOKEN }) }),
  }),
  async send({ settings, alert, config, signal }) {
    const server = (settings.homeserver ?? config.matrixHomeserver).replace(/\/+$/, '');
    // A channel stored before the rule: never send the server's token to a homeserver a member chose.
    if (settings.access_token === undefined && server !== config.matrixHomeserver) throw new DeliveryError(OWN_TOKEN, false, true);
    const token = settings.access_token ?? config.matrixAccessToken;
    if (!token) throw new DeliveryError('matrix access token is not configured (MATRIX_ACCESS_TOKEN)', false);
    const room = encodeURIComponent(settings.room_id);
    await callProvider(
      {
        method: 'PUT',
        url: `${server}/_matrix/client/v3/rooms/${room}/send/m.room.message/${encodeURIComponent(alert.id)}`,
        headers: { authorization: `Bearer ${token}` },
        json: { msgtype: 'm.text', body: textOf(alert), format: 'org.matrix.custom.html', formatted_body: htmlOf(alert) },
      },
      { signal, config },
    );
  },
};
