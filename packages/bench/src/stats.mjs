export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** `items` rotated by `round`, so no item always runs first (or right after the same one). */
export function rotated(items, round) {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The nearest-rank percentile `p` (0–100) of `values`: a value that was measured. */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
}
