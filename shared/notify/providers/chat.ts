/**
 * Chat incoming webhooks (the value is the URL): `slack`, `mattermost`, `discord`, `msteams` (a workflow webhook
 * taking an Adaptive Card). A 404 or 410 means the webhook was deleted: the channel is disabled.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { factsOf, textOf, titleOf } from '../message.js';
import type { Alert, Provider } from '../types.js';

/** Settings of a chat webhook channel. */
export interface ChatSettings {
  url: string;
}

const schema = Joi.object({ url: Joi.string().uri({ scheme: ['http', 'https'] }).required() });
const GONE = [404, 410];

/** Slack's attachment colours. */
function slackColor(alert: Alert): string {
  if (alert.event === 'late') return 'warning';
  return alert.status === 'up' ? 'good' : 'danger';
}

/** The Slack (and Mattermost) message: a fallback text and one attachment with fields. */
export function slackPayload(alert: Alert): Record<string, unknown> {
  return {
    text: titleOf(alert),
    attachments: [
      {
        color: slackColor(alert),
        fallback: textOf(alert),
        title: titleOf(alert),
        title_link: alert.detailsUrl,
        fields: factsOf(alert).map(([title, value]) => ({ title, value, short: title !== 'Description' })),
      },
    ],
  };
}

/** Discord's embed colours: green up, amber late, red down. */
function discordColor(alert: Alert): number {
  if (alert.event === 'late') return 0xf59e0b;
  return alert.status === 'up' ? 0x22c55e : 0xef4444;
}

function discordPayload(alert: Alert): Record<string, unknown> {
  return {
    content: titleOf(alert),
    embeds: [
      {
        title: titleOf(alert),
        url: alert.detailsUrl,
        color: discordColor(alert),
        fields: factsOf(alert).map(([name, value]) => ({ name, value, inline: name !== 'Description' })),
      },
    ],
  };
}

function teamsPayload(alert: Alert): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: titleOf(alert), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'FactSet', facts: factsOf(alert).map(([title, value]) => ({ title, value })) },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'View details', url: alert.detailsUrl }],
        },
      },
    ],
  };
}

function chatProvider(payload: (alert: Alert) => Record<string, unknown>): Provider<ChatSettings> {
  return {
    main: 'url',
    schema,
    async send({ settings, alert, config, signal }) {
      await callProvider({ url: settings.url, json: payload(alert), permanentOn: GONE }, { signal, config });
    },
  };
}

/** The `slack` kind. */
export const slack = chatProvider(slackPayload);
/** The `mattermost` kind (Slack-compatible incoming webhook). */
export const mattermost = chatProvider(slackPayload);
/** The `discord` kind. */
export const discord = chatProvider(discordPayload);
/** The `msteams` kind (workflow webhook; `msteamsw` in the reference). */
export const msteams = chatProvider(teamsPayload);
