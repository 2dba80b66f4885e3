/**
 * Work trackers, on down only (a recovery opens nothing): `trello` adds a card to a list, `github` opens an issue in a
 * repository. API base URLs from config (TRELLO_API_URL, GITHUB_API_URL).
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { labelOf, lastPingOf, reasonSuffixOf } from '../message.js';
import { DeliveryError, type AlertStatus, type Provider } from '../types.js';

/** Both kinds send on down only. */
function downOnly(_settings: unknown, status: AlertStatus): boolean {
  return status === 'down';
}

/** Settings of a trello channel (JSON only: a plain value fills `list_id` and lacks the token). */
export interface TrelloSettings {
  /** The member's token that authorises the application to write to the board. */
  token: string;
  /** Id of the list the cards go to (16 to 32 hex digits). */
  list_id: string;
  /** Application key; default `config.trelloAppKey` (TRELLO_APP_KEY). */
  key?: string;
  /** Names shown to people; not sent. */
  board_name?: string;
  list_name?: string;
}

/** The `trello` kind: a card named `Down: <name>` whose Markdown description has the last ping and a details link. */
export const trello: Provider<TrelloSettings> = {
  main: 'list_id',
  schema: Joi.object({
    token: Joi.string().pattern(/^[A-Za-z0-9]{32,128}$/).required().messages({ 'string.pattern.base': '{{#label}} must be a Trello token' }),
    list_id: Joi.string().pattern(/^[0-9a-fA-F]{16,32}$/).required().messages({ 'string.pattern.base': '{{#label}} must be a Trello list id' }),
    key: Joi.string().pattern(/^[A-Za-z0-9]{16,64}$/).messages({ 'string.pattern.base': '{{#label}} must be a Trello application key' }),
    board_name: Joi.string().max(100),
    list_name: Joi.string().max(100),
  }),
  sendsOn: downOnly,
  async send({ settings, alert, config, signal }) {
    const key = settings.key ?? config.trelloAppKey;
    if (!key) throw new DeliveryError('trello application key is not configured (TRELLO_APP_KEY)', false);
    const desc = [alert.desc, `**Last Ping:** ${lastPingOf(alert)}`, `[Full Details @ ${config.siteName}](${alert.detailsUrl})`];
    const query = new URLSearchParams({
      idList: settings.list_id,
      name: `Down: ${labelOf(alert)}`,
      desc: desc.filter(Boolean).join('\n\n'),
      key,
      token: settings.token,
    });
    // As the reference, everything goes in the query string and the body is empty.
    await callProvider({ url: `${config.trelloApiUrl}/1/cards?${query.toString()}` }, { signal, config });
  },
};

/** Settings of a github channel; a plain value is the repository (and lacks the token). */
export interface GithubSettings {
  /** `owner/name`. */
  repo: string;
  /** A token that may create issues in the repository (fine-grained: Issues read and write). */
  token: string;
  /** Labels of the new issue; default none. */
  labels: string[];
}

/** GitHub's answer when the repository is gone for good (deleted, issues disabled): the channel gets disabled. */
const GONE = [410];

/** The `github` kind: an issue titled `<name> is DOWN` with a Markdown body, labelled as the channel says. */
export const github: Provider<GithubSettings> = {
  main: 'repo',
  schema: Joi.object({
    repo: Joi.string()
      .pattern(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/)
      .required()
      .messages({ 'string.pattern.base': '{{#label}} must be a repository as owner/name' }),
    token: Joi.string().pattern(/^\S{8,255}$/).required().messages({ 'string.pattern.base': '{{#label}} must be a GitHub token' }),
    labels: Joi.array().items(Joi.string().min(1).max(50)).max(100).default([]),
  }),
  sendsOn: downOnly,
  async send({ settings, alert, config, signal }) {
    const lines = [`The check [${labelOf(alert)}](${alert.detailsUrl}) is **DOWN**${reasonSuffixOf(alert)}.`, ''];
    const tags = alert.tags.split(/\s+/).filter(Boolean);
    if (tags.length > 0) lines.push(`**Tags:** ${tags.map((tag) => `\`${tag}\``).join(' ')}`);
    lines.push(`**Last Ping:** ${lastPingOf(alert)}`);
    await callProvider(
      {
        url: `${config.githubApiUrl}/repos/${settings.repo}/issues`,
        headers: {
          authorization: `Bearer ${settings.token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
        },
        json: { title: `${labelOf(alert)} is DOWN`, body: lines.join('\n'), labels: settings.labels },
        permanentOn: GONE,
      },
      { signal, config },
    );
  },
};
