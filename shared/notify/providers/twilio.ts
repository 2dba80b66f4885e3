/**
 * Phone messages through a Twilio-compatible HTTP API
 * (`POST /2010-04-01/Accounts/<account>/Messages.json`, form-encoded, basic
 * auth): `sms`, `whatsapp` (addresses prefixed `whatsapp:`) and `signal`
 * (prefixed `signal:`, for gateways that speak the same API). Account, auth token and
 * sender come from the channel's settings, else from config.
 */
import Joi from 'joi';
import { callProvider } from '../http.js';
import { labelOf, lastPingOf } from '../message.js';
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

/** A short message: phone messages are billed per segment. */
function shortText(alert: Alert): string {
  return `The check "${labelOf(alert)}" is ${alert.status.toUpperCase()}. Last ping: ${lastPingOf(alert)}. ${alert.detailsUrl}`;
}

function phoneProvider(prefix: string): Provider<PhoneSettings> {
  return {
    main: 'number',
    schema: Joi.object({ number: e164.required(), from: e164, account: Joi.string(), auth: Joi.string() }),
    async send({ settings, alert, config, signal }) {
      const account = settings.account ?? config.twilioAccount;
      const auth = settings.auth ?? config.twilioAuth;
      const from = settings.from ?? config.twilioFrom;
      if (!account || !auth || !from) {
        throw new DeliveryError('twilio account, auth token or sender is not configured (TWILIO_ACCOUNT, TWILIO_AUTH, TWILIO_FROM)', false);
      }
      await callProvider(
        {
          url: `${config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(account)}/Messages.json`,
          headers: { authorization: `Basic ${Buffer.from(`${account}:${auth}`).toString('base64')}` },
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
