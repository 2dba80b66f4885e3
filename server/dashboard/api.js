/**
 * The dashboard's client of the v3 Management API: every read and write goes
 * through the same endpoints and validation as any other client.
 */

/** An API answer other than 2xx: `status` is the HTTP status, `message` the API's `error`. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** The v3 API with one project's key. */
export class Api {
  /** @param {string} key - A read-write or read-only API key. */
  constructor(key) {
    this.key = key;
  }

  /**
   * @param {string} method
   * @param {string} path - Under `/api/v3/`, for example `checks/`.
   * @param {unknown} [body] - Sent as JSON.
   * @param {'json' | 'text'} [as]
   * @throws ApiError on a non-2xx answer; TypeError when the service cannot be reached.
   */
  async request(method, path, body, as = 'json') {
    const headers = { 'X-Api-Key': this.key };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`/api/v3/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) {
      const text = await res.text();
      let message = text || res.statusText;
      try {
        message = JSON.parse(text).error ?? message;
      } catch {
        // A body that is not JSON (403 and some 400s have none) keeps the status text.
      }
      throw new ApiError(res.status, message);
    }
    return as === 'text' ? res.text() : res.json();
  }

  /** GET `path` as JSON. */
  get(path) {
    return this.request('GET', path);
  }

  /** POST `body` to `path`, JSON in and out. */
  post(path, body = {}) {
    return this.request('POST', path, body);
  }

  /** A ping's stored body as text. */
  pingBody(id, n) {
    return this.request('GET', `checks/${encodeURIComponent(id)}/pings/${n}/body`, undefined, 'text');
  }

  /**
   * Which kind of key this is: the checks list answers both kinds; the channels list only a read-write key
   * (behaviour.md §3.2 rule 5).
   *
   * @returns {Promise<'read-write' | 'read-only'>}
   * @throws ApiError 401 for a wrong or missing key.
   */
  async access() {
    await this.get('checks/');
    try {
      await this.get('channels/');
      return 'read-write';
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return 'read-only';
      throw err;
    }
  }
}

/**
 * The identifier of a check in paths: its UUID with a read-write key, its `unique_key` with a read-only one.
 *
 * @param {{uuid?: string, unique_key?: string}} check - Check JSON.
 * @returns {string}
 */
export function checkId(check) {
  return check.uuid ?? check.unique_key;
}
