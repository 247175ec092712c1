// A small in-process cache with a time to live, for lookups a warm process repeats on every request (the API
// key's caller, the webhook's integration). Why and for how long each one is cached: docs/decisions/0005-auth-caching.md.

export interface TtlCacheOptions {
  /** How long a loaded value is served before it is read again. */
  ttlMs: number;
  /** Bound on the entries kept; the oldest entry goes first. */
  maxEntries: number;
  /** The clock, in ms; tests move it. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class TtlCache<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  /** Loads under way, shared by the gets that ask for the same key meanwhile (a burst reads storage once). */
  readonly #loading = new Map<K, { epoch: number; value: Promise<V | undefined> }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /**
   * Bumped by every forget: a load that started before a forget may have read what the forgotten change
   * replaced, so its result is returned to its caller but not kept.
   */
  #epoch = 0;

  constructor(options: TtlCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The cached value, or `load()`'s. An undefined result (nothing found) is never cached. A get that finds the same
   * key being loaded since the last forget waits for that load instead of starting another.
   */
  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.#now()) return entry.value;
    if (entry) this.#entries.delete(key);
    const epoch = this.#epoch;
    const under = this.#loading.get(key);
    if (under && under.epoch === epoch) return under.value;
    const loaded = load();
    this.#loading.set(key, { epoch, value: loaded });
    try {
      const value = await loaded;
      if (value !== undefined && epoch === this.#epoch) this.#keep(key, value);
      return value;
    } finally {
      if (this.#loading.get(key)?.value === loaded) this.#loading.delete(key);
    }
  }

  /** Drops the entries whose value matches, at once and for loads still under way. */
  forget(matches: (value: V, key: K) => boolean): void {
    this.#epoch++;
    for (const [key, entry] of this.#entries) if (matches(entry.value, key)) this.#entries.delete(key);
  }

  clear(): void {
    this.forget(() => true);
  }

  get size(): number {
    return this.#entries.size;
  }

  #keep(key: K, value: V): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
  }
}
