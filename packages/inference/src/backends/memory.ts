import type { Backend } from "../types";

/** What was learnt of a (base, model): which framework serves it, and which parameters it refuses. */
export interface BackendFact {
  backend: Backend;
  dropped: ReadonlySet<string>;
}

const MAX_ENTRIES = 500;
const TTL_MS = 60 * 60 * 1000;

/**
 * One bounded LRU with an expiry, shared by every client, `endpoint()` child and standalone call,
 * and the detections in flight, so concurrent first calls for a model wait for one detection.
 */
class BackendMemory {
  private readonly facts = new Map<string, BackendFact & { expires: number }>();
  readonly detections = new Map<string, Promise<void>>();

  get(key: string): BackendFact | undefined {
    const fact = this.facts.get(key);
    if (!fact) return undefined;
    this.facts.delete(key);
    if (fact.expires < Date.now()) return undefined;
    this.facts.set(key, fact); // most recently used last
    return fact;
  }

  /** Called only once the backend's route has answered 2xx. */
  remember(key: string, backend: Backend, dropped: ReadonlySet<string> = new Set()): void {
    this.facts.delete(key);
    this.facts.set(key, { backend, dropped, expires: Date.now() + TTL_MS });
    if (this.facts.size > MAX_ENTRIES) this.facts.delete(this.facts.keys().next().value as string);
  }

  get size(): number {
    return this.facts.size;
  }

  clear(): void {
    this.facts.clear();
  }
}

export const backendMemory = new BackendMemory();
