/**
 * Health shared by the replicas of a proxy through Redis. The inference reads and records health synchronously, so
 * each replica keeps a bounded mirror that calls read and write; Redis is fed and read beside it, never awaited by a
 * call: a record is queued (bounded) and written with a timeout, others' records arrive by subscription.
 */
import { type HealthStore, InputError, type TargetHealth } from "@hfkit/inference";
import type { Redis } from "ioredis";
import { HealthMirror, isTargetHealth } from "./healthMirror";

/** How a Redis health store keeps and reaches Redis; every field optional. */
export interface RedisHealthOptions {
  /** The start of every key and of the channel: `{prefix}:{target}|{credential hash}`, `{prefix}:changes`. Default `hfkit:health`. */
  prefix?: string;
  /** How long Redis keeps a target's health after its last record, in ms: from 1 000 to 604 800 000 (default a day). */
  ttl?: number;
  /** The longest any Redis operation may take before Redis is taken as unreachable, in ms: from 1 to 60 000 (default 500). */
  timeout?: number;
  /** Records waiting to be written (the latest per target) past which the oldest is dropped: 1 to 100 000 (default 1 000). */
  maxQueued?: number;
  /** Where the two lines (Redis unreachable, Redis back) go. Default `console`. */
  logger?: {
    /** Given each of the two lines. */
    warn(message: string): void;
  };
  /** The store's clock, in ms; the replicas' clocks should agree (cooldowns are times). Default `Date.now`. */
  now?: () => number;
}

/** A health store shared through Redis (see {@link redisHealthStore}). */
export interface RedisHealthStore extends HealthStore {
  /** Whether this replica reaches Redis now (otherwise it uses its own memory). */
  readonly sharing: boolean;
  /** Settles once the health kept in Redis was loaded, or Redis found unreachable: whether it is shared. */
  ready(): Promise<boolean>;
  /** Writes what is queued (within the timeout) and leaves Redis. */
  close(): Promise<void>;
}

export const UNREACHABLE = "health: Redis unreachable, using this process's memory";
export const REACHABLE = "health: Redis reachable again, sharing health with the other replicas";
const NO_CLIENT = "health: the Redis client is not installed (npm i ioredis), using this process's memory";

const DAY = 86_400_000;
/** The longest message or value read from Redis; a target's health is a few KB at most. */
const MAX_MESSAGE = 256 * 1024;

/**
 * A `HealthStore` (`@hfkit/inference`) that replicas share through Redis at `url` (`redis://` or `rediss://`; anything else is an
 * InputError naming `health.redis`, before anything is sent). Pass it as `health: { store }`; the proxy takes
 * `health: { redis: url }`. Needs the optional peer `ioredis`, loaded only here.
 */
export function redisHealthStore(url: string, options: RedisHealthOptions = {}): RedisHealthStore {
  return new RedisHealth(checkedUrl(url), checkedOptions(options), options);
}

function checkedUrl(url: unknown): string {
  let protocol: string | undefined;
  try {
    protocol = new URL(String(url)).protocol;
  } catch {
    // Said below.
  }
  if (typeof url === "string" && (protocol === "redis:" || protocol === "rediss:")) return url;
  // Never echoed: a Redis URL may carry a password.
  throw new InputError("`health.redis` must be a redis:// or rediss:// URL", "health.redis");
}

interface Settings {
  prefix: string;
  ttl: number;
  timeout: number;
  maxQueued: number;
}

function checkedOptions(o: RedisHealthOptions): Settings {
  const { prefix = "hfkit:health", ttl = DAY, timeout = 500, maxQueued = 1000 } = o;
  if (typeof prefix !== "string" || !/^[\w:.-]{1,100}$/.test(prefix)) {
    throw new InputError("`prefix` must be 1 to 100 letters, digits, `_`, `:`, `.` or `-`", "prefix");
  }
  integer("ttl", ttl, 1000, 7 * DAY);
  integer("timeout", timeout, 1, 60_000);
  integer("maxQueued", maxQueued, 1, 100_000);
  return { prefix, ttl, timeout, maxQueued };
}

function integer(field: string, value: unknown, min: number, max: number): void {
  if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return;
  throw new InputError(`\`${field}\` must be an integer from ${min} to ${max}`, field);
}

/** `promise`, or a rejection after `ms`. */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Reconnects after 100 ms, doubling to 2 s. */
const backoff = (times: number): number => Math.min(100 * 2 ** Math.max(0, times - 1), 2000);

class RedisHealth implements RedisHealthStore {
  readonly now: () => number;
  private readonly mirror = new HealthMirror();
  /** Records not yet written, the latest per key, oldest first. */
  private readonly queued = new Map<string, TargetHealth>();
  /** Tells this replica's own messages from the others'. */
  private readonly id = globalThis.crypto.randomUUID();
  private readonly channel: string;
  private readonly logger: { warn(message: string): void };
  private client: Redis | undefined;
  private subscriber: Redis | undefined;
  private reachable = false;
  /** The last line logged, so that each is said once per change. */
  private told: "down" | "up" | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;
  private readonly started: Promise<boolean>;
  /** Settles `ready()`: the first join, or Redis found down first. */
  private settle: (shared: boolean) => void = () => undefined;

  constructor(
    private readonly url: string,
    private readonly settings: Settings,
    options: RedisHealthOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? console;
    this.channel = `${settings.prefix}:changes`;
    this.started = this.start();
  }

  get sharing(): boolean {
    return this.reachable;
  }

  get(key: string): TargetHealth | undefined {
    return this.mirror.get(key);
  }

  record(key: string, health: TargetHealth): void {
    this.mirror.set(key, health);
    this.queued.delete(key);
    this.queued.set(key, health);
    if (this.queued.size > this.settings.maxQueued) this.queued.delete(this.queued.keys().next().value ?? "");
    this.write();
  }

  snapshot(): TargetHealth[] {
    return this.mirror.snapshot(this.now());
  }

  ready(): Promise<boolean> {
    return this.started;
  }

  async close(): Promise<void> {
    if (this.reachable) await this.writing;
    this.closed = true;
    this.settle(false);
    this.client?.disconnect();
    this.subscriber?.disconnect();
  }

  /** Connects both clients, subscribes and loads; settles on the first load or when the timeout says Redis is down. */
  private async start(): Promise<boolean> {
    let Client: typeof Redis;
    try {
      Client = (await import("ioredis")).Redis;
    } catch {
      this.tell("down", NO_CLIENT);
      return false;
    }
    if (this.closed) return false;
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResubscribe: false,
      connectTimeout: Math.max(this.settings.timeout, 1000),
      commandTimeout: this.settings.timeout,
      retryStrategy: backoff,
    };
    const first = new Promise<boolean>((resolve) => {
      this.settle = resolve;
      const down = (): boolean | undefined => this.reachable || this.fail();
      setTimeout(down, options.connectTimeout + this.settings.timeout).unref?.();
    });
    const client = (this.client = new Client(this.url, options));
    const subscriber = (this.subscriber = new Client(this.url, options));
    for (const c of [client, subscriber]) {
      c.on("error", () => undefined); // Said once, on `close`.
      c.on("close", () => this.fail());
      c.on("ready", () => void this.join());
    }
    subscriber.on("message", (_channel: string, message: string) => this.receive(message));
    return first;
  }

  /** Once both clients are ready: subscribes, loads what Redis keeps, writes what was queued meanwhile. */
  private async join(): Promise<boolean> {
    const { client, subscriber } = this;
    if (this.closed || client?.status !== "ready" || subscriber?.status !== "ready") return false;
    try {
      await bounded(subscriber.subscribe(this.channel), this.settings.timeout);
      await this.load(client);
    } catch {
      return this.fail();
    }
    this.reachable = true;
    this.settle(true);
    if (this.told === "down") this.tell("up", REACHABLE);
    this.told = "up";
    this.write();
    return true;
  }

  /** Reads the targets Redis keeps (as many as the mirror holds) into the mirror, unless a newer record of ours waits. */
  private async load(client: Redis): Promise<void> {
    const { prefix, timeout } = this.settings;
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await bounded(client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 200), timeout);
      cursor = next;
      keys.push(...found.filter((k) => k !== this.channel));
    } while (cursor !== "0" && keys.length < 500);
    for (let i = 0; i < keys.length; i += 100) {
      const batch = keys.slice(i, i + 100);
      const values = await bounded(client.mget(batch), timeout);
      batch.forEach((k, j) => this.apply(k.slice(prefix.length + 1), parsed(values[j])));
    }
  }

  private receive(message: string): void {
    const m = parsed(message) as { from?: unknown; key?: unknown; health?: unknown } | undefined;
    if (m?.from !== this.id && typeof m?.key === "string") this.apply(m.key, m.health);
  }

  /** Another replica's record: the newest word on `key`, so ours still queued for it is dropped. */
  private apply(key: string, health: unknown): void {
    if (!isTargetHealth(health)) return;
    this.queued.delete(key);
    this.mirror.set(key, health);
  }

  /** Starts writing the queue unless a write runs or Redis is down; one write at a time, then the rest. */
  private write(): void {
    if (this.writing || !this.reachable || this.queued.size === 0) return;
    this.writing = this.flush().finally(() => {
      this.writing = undefined;
      this.write();
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.queued];
    this.queued.clear();
    const { prefix, ttl, timeout } = this.settings;
    const pipeline = this.client!.pipeline();
    for (const [key, health] of batch) {
      pipeline.set(`${prefix}:${key}`, JSON.stringify(health), "PX", ttl);
      pipeline.publish(this.channel, JSON.stringify({ from: this.id, key, health }));
    }
    try {
      const results = await bounded(pipeline.exec(), timeout);
      if (results?.some(([error]) => error)) throw new Error("A Redis write failed");
    } catch {
      // Put back what was not recorded again meanwhile, oldest first, within the bound.
      const rest = [...this.queued];
      this.queued.clear();
      for (const [key, health] of [...batch.filter(([k]) => !rest.some(([r]) => r === k)), ...rest])
        this.queued.set(key, health);
      while (this.queued.size > this.settings.maxQueued) this.queued.delete(this.queued.keys().next().value ?? "");
      this.fail();
      // A connection that stopped answering is dropped; the client reconnects with its backoff.
      this.client?.disconnect(true);
    }
  }

  /** Redis is unreachable (said once until it is back); the mirror goes on alone. */
  private fail(): boolean {
    this.reachable = false;
    this.settle(false);
    if (!this.closed && this.told !== "down") this.tell("down", UNREACHABLE);
    return false;
  }

  private tell(state: "down" | "up", line: string): void {
    this.told = state;
    this.logger.warn(line);
  }
}

const parsed = (text: unknown): unknown => {
  if (typeof text !== "string" || text.length > MAX_MESSAGE) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
