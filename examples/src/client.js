'use strict';
// An HTTP-ish client over an injected fetcher (no network in this demo), with an LRU cache in front of it.
const { LruCache } = require('./cache');

class Client {
  /**
   * @param {object} options
   * @param {(request: {method: string, url: string, headers: Record<string, string>}) =>
   *   Promise<{status: number, body?: string, headers?: Record<string, string>}>} options.fetcher
   * @param {LruCache} [options.cache]
   */
  constructor({ fetcher, cache = new LruCache() }) {
    this.fetcher = fetcher;
    this.cache = cache;
  }

  /**
   * GET a URL. Resolves to {status, body, headers} for every HTTP status; a fetcher failure becomes status 0.
   * @param {string} url
   * @param {{headers?: Record<string, string>}} [options]
   */
  async get(url, { headers = {} } = {}) {
    const cached = this.cache.get(url);
    if (cached !== undefined) return copyResponse(cached);

    let response;
    try {
      const raw = await this.fetcher({ method: 'GET', url, headers: { ...headers } });
      response = {
        status: raw.status,
        body: raw.body ?? '',
        headers: lowerCaseNames(raw.headers ?? {}),
      };
    } catch (error) {
      return {
        status: 0,
        body: '',
        headers: {},
        error: String(error && error.message ? error.message : error),
      };
    }

    // Only successful responses are worth keeping: an error must reach the origin again on retry.
    if (response.status === 200) this.cache.set(url, response);
    return copyResponse(response);
  }
}

function lowerCaseNames(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

function copyResponse(response) {
  return { status: response.status, body: response.body, headers: { ...response.headers } };
}

module.exports = { Client };
