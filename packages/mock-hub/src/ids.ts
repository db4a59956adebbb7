/** Ids that look random but are the same for the same seed, so answers are repeatable. */
export function stableHex(seed: string, size: number): string {
  let hex = "";
  for (let salt = 0; hex.length < size; salt++) {
    let hash = 0x811c9dc5 ^ salt;
    for (const char of seed) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    hex += hash.toString(16).padStart(8, "0");
  }
  return hex.slice(0, size);
}
