import type { Source } from "../core/source";

/** `source`, each value handed to `mark` as it is taken, and `end` called once it is closed. */
export function tapped<T>(source: Source<T>, mark: (value: T) => void, end: () => void): Source<T> {
  return {
    poll() {
      const value = source.poll();
      if (value !== undefined) mark(value);
      return value;
    },
    get ended() {
      return source.ended;
    },
    failure: () => source.failure(),
    pull: (then) => source.pull(then),
    close() {
      source.close();
      end();
    },
  };
}
