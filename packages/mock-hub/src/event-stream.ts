import { Timers } from "./timers.js";
import type { StreamFault } from "./types.js";

const DROP_NAME = "MockHubDropConnection";
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

/** Errors a body to tell the Node adapter to destroy the socket mid-body. */
export class DropConnection extends Error {
  constructor() {
    super("mock hub: the connection is dropped");
    this.name = DROP_NAME;
  }
}

/** By name, so the ESM and CJS copies of the package agree. */
export function isDropConnection(error: unknown): boolean {
  return error instanceof Error && error.name === DROP_NAME;
}

/** Open response bodies, so the hub can count them and end them all. */
export class StreamTracker {
  private readonly stops = new Set<() => void>();

  add(stop: () => void): () => void {
    this.stops.add(stop);
    return () => this.stops.delete(stop);
  }

  count(): number {
    return this.stops.size;
  }

  stopAll(): void {
    for (const stop of [...this.stops]) stop();
  }
}

export interface EventPlan {
  /** `data:` payloads in order (JSON text or `[DONE]`). */
  events: readonly string[];
  /** `data:` (TGI < 2.1) or `data: `. */
  dataPrefix: string;
  /** A wait before the first event (a `latency` fault), in ms; keep-alives still go. */
  firstEventDelayMs?: number;
}

type FaultOf<T extends StreamFault["type"]> = Extract<StreamFault, { type: T }>;

/** `signal`: the request's; when the client aborts, the stream and its timers stop. */
export function createEventStream(
  plan: EventPlan,
  faults: readonly StreamFault[],
  tracker: StreamTracker,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  return new EventPump(plan, faults, tracker, signal).stream();
}

/** Writes the events with the scripted timing and wire faults; every timer dies with the stream. */
class EventPump {
  private readonly timers = new Timers();
  private readonly ending: string;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private pendingBom: string;
  private done = false;
  private writing = false;
  private untrack: () => void = () => {};
  /** Resolved each time the reader takes a chunk (the queue has room again). */
  private pulled: Array<() => void> = [];
  private disarmKeepAlive: () => void = () => {};

  constructor(
    private readonly plan: EventPlan,
    private readonly faults: readonly StreamFault[],
    private readonly tracker: StreamTracker,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.ending = this.find("lineEnding")?.ending ?? "\n";
    this.pendingBom = this.find("bom") ? "\uFEFF" : "";
  }

  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        const stopTracking = this.tracker.add(() => this.fail(new Error("mock hub closed")));
        const onAbort = (): void => this.fail(new Error("the client aborted the request"));
        this.signal?.addEventListener("abort", onAbort, { once: true });
        this.untrack = () => {
          stopTracking();
          this.signal?.removeEventListener("abort", onAbort);
        };
        if (this.signal?.aborted) return onAbort();
        this.run().catch((error: unknown) => this.fail(error));
      },
      pull: () => this.wakePulled(),
      cancel: () => void this.finish(),
    });
  }

  private find<T extends StreamFault["type"]>(type: T): FaultOf<T> | undefined {
    return this.faults.find((fault): fault is FaultOf<T> => fault.type === type);
  }

  /** A stall, drop or truncation scheduled after `sent` events. */
  private cutAfter(sent: number): StreamFault | undefined {
    const cuts = ["stall", "drop", "truncate"] as const;
    return this.faults.find((fault) => cuts.some((type) => type === fault.type) && afterChunks(fault) === sent);
  }

  private async run(): Promise<void> {
    const { events } = this.plan;
    const slow = this.find("slow");
    const malformed = this.find("malformed");
    this.armKeepAlive();
    const wait = this.plan.firstEventDelayMs ?? 0;
    if (wait > 0 && !(await this.timers.sleep(wait))) return;
    for (let sent = 0; sent < events.length; sent++) {
      if (sent > 0 && slow && !(await this.timers.sleep(slow.delayMs))) return;
      const cut = this.cutAfter(sent);
      if (cut) return this.cutOff(cut);
      const event = events[sent] ?? "";
      if (malformed && afterChunks(malformed) === sent) await this.write(this.frame(brokenJson(event)));
      if (!(await this.write(this.frame(event)))) return;
    }
    const cut = this.cutAfter(events.length);
    if (cut) return this.cutOff(cut);
    // A lingering body stays open (keep-alives included) until the client or the hub ends it.
    if (!this.find("linger")) this.close();
  }

  private async cutOff(cut: StreamFault): Promise<void> {
    // Erroring the body discards what it still queues: a drop waits until its events are read.
    if (cut.type === "drop") await this.drained();
    if (cut.type === "drop") this.fail(new DropConnection());
    if (cut.type === "truncate") this.close();
  }

  /** Resolves once the reader has taken every queued chunk (or the stream is over). */
  private async drained(): Promise<void> {
    while (!this.done && (this.controller?.desiredSize ?? 1) <= 0) {
      await new Promise<void>((resolve) => this.pulled.push(resolve));
    }
  }

  private wakePulled(): void {
    for (const resolve of this.pulled.splice(0)) resolve();
  }

  private frame(data: string): string {
    return `${this.plan.dataPrefix}${data}${this.ending}${this.ending}`;
  }

  private async write(text: string): Promise<boolean> {
    const chunking = this.find("bodyChunking");
    const bytes = encoder.encode(this.pendingBom + text);
    this.pendingBom = "";
    this.writing = true;
    for (const piece of splitBytes(bytes, chunking?.bytes)) {
      if (this.done) return false;
      this.controller?.enqueue(piece);
      if (chunking?.delayMs && !(await this.timers.sleep(chunking.delayMs))) return false;
    }
    this.writing = false;
    this.armKeepAlive();
    return !this.done;
  }

  /** Like axum's KeepAlive: a `:` comment after each silence of `intervalMs`. */
  private armKeepAlive(): void {
    const keepAlive = this.find("keepAlive");
    if (!keepAlive || this.done) return;
    this.disarmKeepAlive();
    this.disarmKeepAlive = this.timers.after(keepAlive.intervalMs ?? DEFAULT_KEEP_ALIVE_MS, () => {
      if (this.writing) return this.armKeepAlive();
      void this.write(`:${this.ending}${this.ending}`);
    });
  }

  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.timers.clear();
    this.untrack();
    this.wakePulled();
    return true;
  }

  private close(): void {
    if (this.finish()) this.controller?.close();
  }

  private fail(error: unknown): void {
    if (this.finish()) this.controller?.error(error);
  }
}

function afterChunks(fault: StreamFault): number {
  return "afterChunks" in fault ? (fault.afterChunks ?? 1) : 1;
}

/** The first half of an event: JSON that does not parse. */
function brokenJson(event: string): string {
  return event.slice(0, Math.ceil(event.length / 2));
}

function splitBytes(bytes: Uint8Array, size: number | undefined): Uint8Array[] {
  if (!size || size <= 0 || bytes.length <= size) return [bytes];
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return pieces;
}
