import type { Logger, RetryEvent } from "@hfkit/inference";
import { paint } from "./color";
import { printable } from "./safeText";

const FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

/** The client's warnings, one line each on stderr, escaped: they may quote a server. Loading is the progress line's. */
export function warnings(stderr: NodeJS.WritableStream): Logger {
  return { warn: (m) => void (/is loading/.test(m) || stderr.write(`${printable(m)}\n`)) };
}

/**
 * What the user sees while nothing has arrived yet: on a terminal, one spinner line with the model's
 * estimated loading time, cleared when the first token arrives; elsewhere, plain lines. Dimmed when
 * `color` is on.
 */
export class Progress {
  private timer: ReturnType<typeof setInterval> | undefined;
  private line = "";
  private frame = 0;
  private readonly started = Date.now();
  private readonly dim: (text: string) => string;

  constructor(
    private readonly stderr: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly model: string,
    color = false,
  ) {
    this.dim = paint(color).dim;
  }

  onRetry(event: RetryEvent): void {
    const secs = (event.delayMs / 1000).toFixed(1);
    // A model id is printed as given: a control character in it must not move the spinner's cursor.
    const text = printable(
      event.reason === "loading"
        ? `Model ${this.model} is loading${event.estimatedTime !== undefined ? ` (about ${Math.round(event.estimatedTime)} s)` : ""}`
        : `Retrying in ${secs} s (${event.reason}${event.status ? `, HTTP ${event.status}` : ""})`,
    );
    if (!this.stderr.isTTY) return void this.stderr.write(`${this.dim(`${text}...`)}\n`);
    this.line = text;
    this.timer ??= setInterval(() => this.draw(), 100);
    this.draw();
  }

  private draw(): void {
    const elapsed = Math.round((Date.now() - this.started) / 1000);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stderr.write(`\r\x1b[K${this.dim(`${FRAMES[this.frame]} ${this.line} — ${elapsed} s`)}`);
  }

  /** The first token arrived, or the call ended: the progress line goes away. */
  clear(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stderr.write("\r\x1b[K");
  }
}
