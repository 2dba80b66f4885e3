/**
 * Plain HTTP(S) calls to providers with Node's global fetch, and the one
 * place HTTP outcomes are classified: network errors, timeouts, 429 and 5xx
 * are retried; any other non-2xx answer is not.
 */
import { DeliveryError } from './types.js';

/** Characters of a provider's error body kept in the error text. */
const ERROR_BODY_CHARS = 200;

/** One request to a provider. */
export interface ProviderRequest {
  /** Default `POST`. */
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as `application/json`. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  /** Sent as given, with the caller's headers. */
  body?: string;
  /** Statuses meaning the destination is gone for good (the channel gets disabled). */
  permanentOn?: number[];
}

function bodyOf(req: ProviderRequest): { body?: string; type?: string } {
  if (req.json !== undefined) return { body: JSON.stringify(req.json), type: 'application/json' };
  if (req.form) return { body: new URLSearchParams(req.form).toString(), type: 'application/x-www-form-urlencoded' };
  return { body: req.body };
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Sends a request and checks the answer.
 *
 * @param req - What to send.
 * @param signal - The attempt's timeout signal.
 * @returns The response text of a 2xx answer.
 * @throws DeliveryError: retryable for network errors, timeouts, 429 and 5xx; not retryable for other answers.
 */
export async function callProvider(req: ProviderRequest, signal: AbortSignal): Promise<string> {
  const { body, type } = bodyOf(req);
  const headers: Record<string, string> = { ...(type ? { 'content-type': type } : {}), ...req.headers };
  let res: Response;
  try {
    res = await fetch(req.url, { method: req.method ?? 'POST', headers, body, signal, redirect: 'manual' });
  } catch (err) {
    if (signal.aborted) throw signal.reason instanceof DeliveryError ? signal.reason : new DeliveryError('timed out', true);
    throw new DeliveryError(`connection failed: ${causeText(err)}`, true);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return text;
  const detail = text.trim().slice(0, ERROR_BODY_CHARS);
  const message = `received status code ${res.status}${detail ? `: ${detail}` : ''}`;
  const retryable = res.status === 429 || res.status >= 500;
  throw new DeliveryError(message, retryable, req.permanentOn?.includes(res.status) ?? false);
}
