/** Random hex digits: the Web Crypto API where the runtime has it (every supported one does), else Math.random. */
function hex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (b: Uint8Array) => Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(buffer);
  else for (let i = 0; i < bytes; i++) buffer[i] = Math.floor(Math.random() * 256);
  let out = "";
  for (const b of buffer) out += b.toString(16).padStart(2, "0");
  return out;
}

/** An id as OpenAI's look: `resp_`, `msg_`, `rs_`, `fc_` (24 bytes of hex), or `call_` (12). */
export const newId = (prefix: "resp" | "msg" | "rs" | "fc" | "call"): string =>
  `${prefix}_${hex(prefix === "call" ? 12 : 24)}`;
