/**
 * `sms`, `whatsapp` and `signal` (numbers prefixed `whatsapp:`/`signal:`) through a Twilio-compatible Messages API,
 * and `call` (a voice call that reads the alert out) through its Calls API; account, auth token and sender from the
 * channel's settings, else config.
 */
import Joi from 'joi';
import type { NotifyConfig } from '../../config.js';
import { callProvider } from '../http.js';
import { labelOf, lastPingOf, statusWordOf } from '../message.js';
import { DeliveryError, type Alert, type Provider } from '../types.js';

/** Settings of a phone channel; a plain value is the recipient's number. */
export interface PhoneSettings {
  /** E.164, for example `+15551234567`. */
  number: string;
  /** Sender number (E.164); default `config.twilioFrom`. */
  from?: string;
  /** Default `config.twilioAccount`. */
  account?: string;
  /** Default `config.twilioAuth`. */
  auth?: string;
}

const e164 = Joi.string().pattern(/^\+[1-9]\d{6,14}$/).messages({ 'string.pattern.base': '{{#label}} must be a phone number in E.164 format' });

const phoneSchema = Joi.object({ number: e164.required(), from: e164, account: Joi.string(), auth: Joi.string() });

/** A short message: phone messages are billed per segment. */
function shortText(alert: Alert): string {
  return `The check "${labelOf(alert)}" is ${statusWordOf(alert)}. Last ping: ${lastPingOf(alert)}. ${alert.detailsUrl}`;
}

/** Twilio's error code for an invalid `To` number: the channel will never work. */
const INVALID_TO_NUMBER = 21211;

/** Whether a Twilio answer is a 400 whose JSON error `code` is {@link INVALID_TO_NUMBER}. */
function invalidNumber(status: number, body: string): boolean {
  if (status !== 400) return false;
  try {
    return (JSON.parse(body) as { code?: unknown } | null)?.code === INVALID_TO_NUMBER;
  } catch {
    return false;
  }
}

/** Escapes `&`, `<` and `>` for XML character data (quotes stay as they are, as in the reference). */
function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Account resource URL, Basic authorization and sender. @throws DeliveryError (not retried) when one is missing. */
function twilioAccountOf(settings: PhoneSettings, config: NotifyConfig): { base: string; authorization: string; from: string } {
  const account = settings.account ?? config.twilioAccount;
  const auth = settings.auth ?? config.twilioAuth;
  const from = settings.from ?? config.twilioFrom;
  if (!account || !auth || !from) {
    throw new DeliveryError('twilio account, auth token or sender is not configured (TWILIO_ACCOUNT, TWILIO_AUTH, TWILIO_FROM)', false);
  }
  return {
    base: `${config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(account)}`,
    authorization: `Basic ${Buffer.from(`${account}:${auth}`).toString('base64')}`,
    from,
  };
}

function phoneProvider(prefix: string): Provider<PhoneSettings> {
  return {
    main: 'number',
    schema: phoneSchema,
    async send({ settings, alert, config, signal }) {
      const { base, authorization, from } = twilioAccountOf(settings, config);
      await callProvider(
        {
          url: `${base}/Messages.json`,
          headers: { authorization },
          form: { From: `${prefix}${from}`, To: `${prefix}${settings.number}`, Body: shortText(alert) },
        },
        { signal, config },
      );
    },
  };
}

/** The `sms` kind. */
export const sms = phoneProvider('');
/** The `whatsapp` kind. */
export const whatsapp = phoneProvider('whatsapp:');
/** The `signal` kind. */
export const signal = phoneProvider('signal:');

/**
 * The `call` kind: on down only, a voice call whose TwiML says the check is down; an answer of 400 with Twilio error
 * 21211 (invalid `To` number) disables the channel.
 */
export const call: Provider<PhoneSettings> = {
  main: 'number',
  schema: phoneSchema,
  sendsOn: (_settings, status) => status === 'down',
  async send({ settings, alert, config, signal }) {
    const { base, authorization, from } = twilioAccountOf(settings, config);
    const message = `Hello! A message from ${config.siteName}: The check "${labelOf(alert)}" is down.`;
    await callProvider(
      {
        url: `${base}/Calls.json`,
        headers: { authorization },
        form: { From: from, To: settings.number, Twiml: `<Response><Say>${xmlText(message)}</Say></Response>` },
        permanentWhen: invalidNumber,
      },
      { signal, config },
    );
  },
};
