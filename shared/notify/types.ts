/** What every alert provider shares: the alert, one attempt's context, and the error that says whether to retry. */
import type Joi from 'joi';
import type { NotifyConfig } from '../config.js';
import type { ChannelDoc } from '../models/channel.js';
import type { FlipReason, RuleEvent } from '../models/check.js';

/** The flip directions that notify (docs/alerts.md, "Who gets alerted"). */
export type AlertStatus = 'up' | 'down';

/** Everything a message says about one flip of one check. */
export interface Alert {
  /** Unique per (flip, channel); providers that take an idempotency key get this. */
  id: string;
  checkId: string;
  /** The check's name; may be empty. */
  name: string;
  /** Space-separated tags, as stored. */
  tags: string;
  desc: string;
  status: AlertStatus;
  reason: FlipReason;
  /** A timed rule's alert (`late`, `reminder`, `resumed`; docs/alerting-rules.md); absent for a flip's alert. */
  event?: RuleEvent;
  /** The reminder's number (`event: 'reminder'`). */
  reminder?: number;
  /** When the check flipped (for a missed deadline, the computed going-down moment). */
  at: Date;
  /** The check's last success or fail ping, or null when it never pinged. */
  lastPing: Date | null;
  /** The check's page in the web app, `{base_url}/projects/<project id>/checks/<uuid>/`: the link people follow. */
  detailsUrl: string;
  /** The check in the API, `{base_url}/api/v3/checks/<uuid>`: `update_url` of the alert's JSON, as the reference sends it. */
  updateUrl: string;
}

/** One delivery attempt's inputs. */
export interface SendContext<S> {
  /** The channel's validated settings. */
  settings: S;
  alert: Alert;
  config: NotifyConfig;
  /** Aborts when the attempt's timeout (`config.attemptTimeoutMs` milliseconds) passes. */
  signal: AbortSignal;
  /** The sending channel's project; undefined when the caller named only a kind and value (a `group` then fails). */
  projectId: string | undefined;
  /** The sending channel's id (an email alert's unsubscribe link) and unconfirmed addresses, when it is stored. */
  channel: Pick<DeliveryChannel, '_id' | 'unconfirmed'>;
  /**
   * Sends the alert through another channel (a `group`'s member) as `deliver` does, nothing when that channel does
   * not alert on the status; handed in so that no provider imports deliver.ts (no import cycle).
   * @returns Whether it sent.
   * @throws DeliveryError as `deliver` does.
   */
  deliverTo: (channel: DeliveryChannel, alert: Alert) => Promise<boolean>;
}

/** What delivering needs of a channel: kind and value; its project for a `group`; its id and unconfirmed addresses for an `email`. */
export type DeliveryChannel = Pick<ChannelDoc, 'kind' | 'value' | 'unconfirmed'> & Partial<Pick<ChannelDoc, 'projectId' | '_id'>>;

/** A kind of channel: how its settings look and how it sends. */
export interface Provider<S> {
  /** The setting a plain (non-JSON) channel value fills. */
  main: string;
  /** Joi schema of the settings object, without the common `up`/`down` flags. */
  schema: Joi.ObjectSchema;
  /** Turns a plain value into settings; default `{ [main]: value }`. */
  fromPlain?(value: string): Record<string, unknown>;
  /** Whether the channel sends anything for `status`; default true (the `up`/`down` flags are checked apart). */
  sendsOn?(settings: S, status: AlertStatus): boolean;
  /** Delivers the alert. @throws DeliveryError when the provider refuses or cannot be reached. */
  send(ctx: SendContext<S>): Promise<void>;
}

/**
 * Why a delivery attempt failed (stored on the notification and channel). `retryable` (network errors, timeouts, 429,
 * 5xx): try again after a backoff; `permanent` (destination gone): disable the channel (docs/alerts.md, "Retries and delivery guarantee").
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}
