const MAX_ENTRIES = 500;
const TTL_MS = 60 * 60 * 1000;

/** What was learnt of endpoints: one bounded LRU with an expiry, shared by every client. */
export class BoundedMemory<V> {
  private readonly facts = new Map<string, { value: V; expires: number }>();

  declare private readonly capacity: number;

  /** `capacity`: how many keys are kept; past it, the least recently used goes first. */
  constructor(capacity = MAX_ENTRIES) {
    this.capacity = capacity;
  }

  get(key: string): V | undefined {
    const fact = this.facts.get(key);
    if (!fact) return undefined;
    this.facts.delete(key);
    if (fact.expires < Date.now()) return undefined;
    this.facts.set(key, fact); // most recently used last
    return fact.value;
  }

  set(key: string, value: V): void {
    this.facts.delete(key);
    this.facts.set(key, { value, expires: Date.now() + TTL_MS });
    if (this.facts.size > this.capacity) this.facts.delete(this.facts.keys().next().value ?? "");
  }

  get size(): number {
    return this.facts.size;
  }

  clear(): void {
    this.facts.clear();
  }
}
