/**
 * What Ctrl-C (SIGINT) does. A command pushes a handler while it has something to cancel (a request in
 * flight, a prompt waiting); each Ctrl-C runs the most recent handler once and removes it. With none,
 * `fallback` runs: the CLI exits 130 at once. So no Ctrl-C is ever swallowed.
 */
export class Interrupts {
  private readonly handlers: (() => void)[] = [];

  constructor(private readonly fallback: () => void) {}

  /** Makes `handler` what the next Ctrl-C does; answers its removal (a no-op once it has run). */
  push(handler: () => void): () => void {
    const entry = (): void => handler();
    this.handlers.push(entry);
    return () => {
      const i = this.handlers.lastIndexOf(entry);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  /** One Ctrl-C. */
  fire(): void {
    const handler = this.handlers.pop();
    if (handler) handler();
    else this.fallback();
  }
}
