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
