'use strict';
// A least-recently-used cache with a time-to-live and two budgets: a number of entries and a number of bytes.
// Time comes from an injected clock so tests can move it without sleeping.

class LruCache {
  /**
   * @param {object} [options]
   * @param {number} [options.maxEntries] most entries held at once
   * @param {number} [options.maxBytes] most bytes (as measured by sizeOf) held at once
   * @param {number} [options.ttlMs] how long an entry may be served after it was stored
   * @param {() => number} [options.now] clock in milliseconds
   * @param {(value: unknown) => number} [options.sizeOf] byte size of a value
   */
  constructor({
    maxEntries = 32,
    maxBytes = 64 * 1024,
    ttlMs = 30_000,
    now = Date.now,
    sizeOf = defaultSizeOf,
  } = {}) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.ttlMs = ttlMs;
    this.now = now;
    this.sizeOf = sizeOf;
    /** Insertion order of a Map is the recency order: the first key is the least recently used. */
    this.entries = new Map();
    this.bytes = 0;
    this.hits = 0;
    this.misses = 0;
  }

  get size() {
    return this.entries.size;
  }

  get(key) {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    if (this.now() >= entry.expiresAt) {
      this.delete(key);
      this.misses++;
      return undefined;
    }
    // Touch: move the key to the most recently used end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry.value;
  }

  set(key, value) {
    const bytes = this.sizeOf(value);
    this.delete(key);
    if (bytes > this.maxBytes) return false;
    this.entries.set(key, { value, bytes, expiresAt: this.now() + this.ttlMs });
    this.bytes += bytes;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      this.delete(oldest);
    }
    return true;
  }

  delete(key) {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return true;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  stats() {
    const lookups = this.hits + this.misses;
    return { hits: this.hits, misses: this.misses, hitRate: lookups === 0 ? 0 : this.hits / lookups };
  }
}

function defaultSizeOf(value) {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

module.exports = { LruCache };
