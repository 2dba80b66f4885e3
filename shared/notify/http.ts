/**
 * HTTP calls to providers with undici's `request` (not fetch: docs/notes.md), and the one place their outcomes are
 * classified: network errors, timeouts, 429 and 5xx are retried; other answers and private targets are not.
 */
import { request, type Dispatcher } from 'undici';
import type { NotifyConfig } from '../config.js';
import { assertPublicLiteral, PrivateTargetError, providerDispatcher } from './egress.js';
import { DeliveryError } from './types.js';

/** Characters of a provider's error body kept in the error text. */
const ERROR_BODY_CHARS = 200;

/** One request to a provider (default `POST`); the body is `json`, `form` (urlencoded) or `body` as given. */
export interface ProviderRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string;
  /** Statuses meaning the destination is gone for good (the channel gets disabled). */
  permanentOn?: number[];
  /** Whether a non-2xx answer (status and body text) means the destination is gone for good, beyond `permanentOn`. */
  permanentWhen?(status: number, body: string): boolean;
}

/** The User-Agent of every provider request (unless the request names its own). */
export const USER_AGENT = 'hc-monitor';

function bodyOf(req: ProviderRequest): { body?: string; type?: string } {
  if (req.json !== undefined) return { body: JSON.stringify(req.json), type: 'application/json' };
  if (req.form) return { body: new URLSearchParams(req.form).toString(), type: 'application/x-www-form-urlencoded' };
  return { body: req.body, type: req.body === undefined ? undefined : 'text/plain;charset=UTF-8' };
}

/** Moves a URL's user and password into a Basic Authorization value, as curl does. @throws TypeError for a bad URL. */
function splitCredentials(url: string): { url: string; authorization?: string } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url };
  const userPass = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = parsed.password = '';
  return { url: parsed.toString(), authorization: `Basic ${Buffer.from(userPass).toString('base64')}` };
}

/** The request's headers over the defaults (User-Agent, Accept, body type, URL credentials), in any letter case. */
function headersOf(req: ProviderRequest, type: string | undefined, authorization: string | undefined): Record<string, string> {
  const given = new Set(Object.keys(req.headers ?? {}).map((name) => name.toLowerCase()));
  const defaults: Record<string, string | undefined> = { 'user-agent': USER_AGENT, accept: '*/*', 'content-type': type, authorization };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) if (value !== undefined && !given.has(name)) headers[name] = value;
  return { ...headers, ...req.headers };
}

/** What a request needs from its delivery attempt (a SendContext fits): timeout signal and `allowPrivateIps`. */
export interface RequestContext {
  signal: AbortSignal;
  config: Pick<NotifyConfig, 'allowPrivateIps'>;
}

function causeText(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  return code ?? message ?? String(err);
}

/**
 * Sends a request; returns the response text of a 2xx answer.
 * @throws DeliveryError: retryable for network errors, timeouts, 429 and 5xx; not retryable for other answers and
 *   for a non-public target (unless allowed).
 */
export async function callProvider(req: ProviderRequest, ctx: RequestContext): Promise<string> {
  const { signal } = ctx;
  const { body, type } = bodyOf(req);
  const dispatcher = providerDispatcher(ctx.config.allowPrivateIps);
  let res: Dispatcher.ResponseData;
  try {
    const target = splitCredentials(req.url);
    if (dispatcher) assertPublicLiteral(target.url);
    const headers = headersOf(req, type, target.authorization);
    // No redirect is followed: a 3xx is a refusal like any other non-2xx answer.
    res = await request(target.url, { method: req.method ?? 'POST', headers, body, signal, dispatcher });
  } catch (err) {
    const refused = err instanceof PrivateTargetError ? err : (err as { cause?: unknown }).cause;
    if (refused instanceof PrivateTargetError) throw new DeliveryError(refused.message, false);
    if (signal.aborted) throw signal.reason instanceof DeliveryError ? signal.reason : new DeliveryError('timed out', true);
    throw new DeliveryError(`connection failed: ${causeText(err)}`, true);
  }
  const status = res.statusCode;
  const text = await res.body.text().catch(() => '');
  if (status >= 200 && status < 300) return text;
  const detail = text.trim().slice(0, ERROR_BODY_CHARS);
  const message = `received status code ${status}${detail ? `: ${detail}` : ''}`;
  const retryable = status === 429 || status >= 500;
  const permanent = (req.permanentOn?.includes(status) ?? false) || (req.permanentWhen?.(status, text) ?? false);
  throw new DeliveryError(message, retryable, permanent);
}
