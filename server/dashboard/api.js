/**
 * The wall display's client of the v3 Management API: GET requests only, with a read-only key, through the same
 * endpoints as any other client.
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

/** The v3 API with one project's key, read only. */
export class Api {
  /** @param {string} key - The key typed in: read-only once {@link Api#access} said so. */
  constructor(key) {
    this.key = key;
  }

  /**
   * GET `path` as JSON.
   *
   * @param {string} path - Under `/api/v3/`, for example `checks/`.
   * @throws ApiError on a non-2xx answer; TypeError when the service cannot be reached.
   */
  async get(path) {
    const res = await fetch(`/api/v3/${path}`, { headers: { 'X-Api-Key': this.key } });
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
    return res.json();
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
