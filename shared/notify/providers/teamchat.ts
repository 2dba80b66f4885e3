/**
 * Team chats with the reference's message shapes: `googlechat` (a space's incoming webhook, a card),
 * `rocketchat` (a Slack-like incoming webhook) and `zulip` (a bot posting through the REST API). The reference
 * treats no answer of these as permanent, so none disables the channel.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { causeOf, escapeHtml, factsOf, labelOf, statusWordOf } from '../message.js';
import type { Alert, Provider } from '../types.js';
import type { ChatSettings } from './chat.js';

const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });
const webhookSchema = Joi.object({ url: httpUrl.required() });
/** The name Rocket.Chat messages are posted under (the reference's SITE_NAME). */
const SENDER = 'hc-monitor';

/** `DOWN` or `UP`. */
function upper(alert: Alert): string {
  return statusWordOf(alert);
}

/** ` (<cause>)` when the flip has a reason (timeout, fail), else nothing: the reference's `flip.reason_long` part. */
function reasonSuffix(alert: Alert): string {
  return alert.reason ? ` (${causeOf(alert)})` : '';
}

/** The facts that the message's first line does not already say (status and cause). */
function extraFacts(alert: Alert): Array<[string, string]> {
  return factsOf(alert).filter(([title]) => title !== 'Status' && title !== 'Cause');
}

/** Google Chat's card: an HTML paragraph, the facts as decorated texts, and a button to the details. */
function googleChatPayload(alert: Alert): Record<string, unknown> {
  const name = `<b>${escapeHtml(labelOf(alert))}</b>`;
  const lines =
    alert.status === 'down'
      ? [`🔴 The check ${name} is <b>DOWN</b>.`, ...(alert.reason ? [`Reason: ${escapeHtml(causeOf(alert))}.`] : [])]
      : [`🟢 The check ${name} is now <b>UP</b>.`];
  const widgets: unknown[] = [
    { textParagraph: { text: lines.join('\n') } },
    ...extraFacts(alert).map(([topLabel, text]) => ({ decoratedText: { topLabel, text: escapeHtml(text) } })),
    {
      buttonList: {
        buttons: [{ text: 'View details', type: 'FILLED', onClick: { openLink: { url: alert.detailsUrl } } }],
      },
    },
  ];
  // The API documents `sections` as a list; the reference sends its one section as a bare object.
  return { cardsV2: [{ card: { sections: [{ collapsible: true, uncollapsibleWidgetsCount: 1, widgets }] } }] };
}

/** Rocket.Chat's message: a Markdown line linking the check, and one coloured attachment with the facts. */
function rocketChatPayload(alert: Alert): Record<string, unknown> {
  const fields = extraFacts(alert).map(([title, value]) => {
    const shown = title === 'Tags' ? value.split(/\s+/).map((tag) => `\`${tag}\``).join(' ') : value;
    return title === 'Description' ? { title, value: shown } : { title, value: shown, short: true };
  });
  return {
    alias: SENDER,
    text: `[${labelOf(alert)}](${alert.detailsUrl}) is ${upper(alert)}${reasonSuffix(alert)}.`,
    attachments: [{ color: alert.status === 'up' ? '#5cb85c' : '#d9534f', fields }],
  };
}

function webhookProvider(payload: (alert: Alert) => Record<string, unknown>): Provider<ChatSettings> {
  return {
    main: 'url',
    schema: webhookSchema,
    async send({ settings, alert, config, signal }) {
      await callProvider({ url: settings.url, json: payload(alert) }, { signal, config });
    },
  };
}

/** The `googlechat` kind: the value is the space's incoming webhook URL. */
export const googlechat = webhookProvider(googleChatPayload);
/** The `rocketchat` kind: the value is the incoming webhook (integration) URL. */
export const rocketchat = webhookProvider(rocketChatPayload);

/** Settings of a zulip channel (JSON only; the reference's names, so its stored values read as they are). */
export interface ZulipSettings {
  /** The bot's address; its domain gives the default site. */
  bot_email: string;
  /** The bot's API key. */
  api_key: string;
  /** The organisation's URL; default (or `""`) `https://<bot_email's domain>`. */
  site?: string;
  /** `stream` (a channel and topic) or `private` (direct message). */
  mtype: 'stream' | 'private';
  /** The stream's name, or the recipient's address or numeric user id. */
  to: string;
  /** The stream topic; default (or `""`) `<check> is DOWN` / `UP`. */
  topic?: string;
}

/** Zulip's site: the one set, else derived from the bot's address as the reference does; no trailing slash. */
function zulipSite(settings: ZulipSettings): string {
  const site = settings.site || `https://${settings.bot_email.slice(settings.bot_email.lastIndexOf('@') + 1)}`;
  return site.replace(/\/+$/, '');
}

/** Zulip's Markdown message: the linked check, its state and cause, then the description below a rule. */
function zulipContent(alert: Alert): string {
  const lines = [`[${labelOf(alert)}](${alert.detailsUrl}) is **${upper(alert)}**${reasonSuffix(alert)}.`];
  if (alert.desc) lines.push('', '---', '**Description**', alert.desc);
  return lines.join('\n');
}

/**
 * The `zulip` kind: a form POST to `<site>/api/v1/messages` with the bot's credentials as HTTP Basic auth. A
 * direct message to a numeric user id goes to `[<id>]`, the list Zulip expects.
 */
export const zulip: Provider<ZulipSettings> = {
  main: 'to',
  schema: Joi.object({
    bot_email: Joi.string().email({ tlds: false }).max(100).required(),
    api_key: Joi.string().max(50).required(),
    site: httpUrl.max(100).allow(''),
    mtype: Joi.string().valid('stream', 'private').required(),
    to: Joi.string().max(100).required(),
    topic: Joi.string().max(100).allow(''),
  }),
  async send({ settings, alert, config, signal }) {
    const credentials = Buffer.from(`${settings.bot_email}:${settings.api_key}`).toString('base64');
    const to = settings.mtype === 'private' && /^\d+$/.test(settings.to) ? `[${settings.to}]` : settings.to;
    await callProvider(
      {
        url: `${zulipSite(settings)}/api/v1/messages`,
        headers: { authorization: `Basic ${credentials}` },
        form: {
          type: settings.mtype,
          to,
          topic: settings.topic || `${labelOf(alert)} is ${upper(alert)}`,
          content: zulipContent(alert),
        },
      },
      { signal, config },
    );
  },
};
