/**
 * Hosts inside the network: a URL that a server's answer names and that points there is not fetched (a provider's
 * answer must not make a server-side app read its own cloud metadata or an internal service). Literal addresses and
 * `localhost` only: names are not resolved (the WHATWG parser already turns `0x7f.1` and `2130706433` into `127.0.0.1`).
 */

/** IPv4 blocks `[first octet, second from, second to]`: this network, private, CGNAT, loopback, link-local (metadata), broadcast. */
const V4_BLOCKS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 255],
  [10, 0, 255],
  [100, 64, 127],
  [127, 0, 255],
  [169, 254, 254],
  [172, 16, 31],
  [192, 168, 168],
  [255, 255, 255],
];

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog"]);

function internalV4(host: string): boolean {
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return false;
  const [a, b] = octets as [number, number];
  return V4_BLOCKS.some(([first, from, to]) => a === first && b >= from && b <= to);
}

/** An IPv6 literal (as the URL parser writes it, brackets removed) on loopback, unspecified, unique-local, link-local or an IPv4-mapped internal address. */
function internalV6(host: string): boolean {
  if (host === "::" || host === "::1") return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return false;
  const hi = parseInt(mapped[1]!, 16);
  const lo = parseInt(mapped[2]!, 16);
  return internalV4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
}

/** True when `url` names a loopback, private, link-local or cloud-metadata host (a literal address, or `localhost`). */
export function isInternalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "localhost" || host.endsWith(".localhost") || METADATA_NAMES.has(host)) return true;
  if (host.startsWith("[")) return internalV6(host.slice(1, -1));
  return internalV4(host);
}
