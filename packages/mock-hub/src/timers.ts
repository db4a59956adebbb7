/** A set of timers that can all be cleared at once, so nothing outlives a stream or the hub. */
export class Timers {
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();

  /** Runs `fn` after `ms`; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void {
    const handle = setTimeout(() => {
      this.pending.delete(handle);
      fn();
    }, ms);
    this.pending.set(handle, () => {});
    return () => {
      clearTimeout(handle);
      this.pending.delete(handle);
    };
  }

  /** Resolves true after `ms`, or false at once when `clear()` runs first. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const handle = setTimeout(() => {
        this.pending.delete(handle);
        resolve(true);
      }, ms);
      this.pending.set(handle, () => resolve(false));
    });
  }

  clear(): void {
    for (const [handle, interrupt] of this.pending) {
      clearTimeout(handle);
      interrupt();
    }
    this.pending.clear();
  }
}
