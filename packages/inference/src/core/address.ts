/**
 * Hosts inside the network: a URL that a server's answer names and that points there is not fetched (a provider's
 * answer must not make a server-side app read its cloud metadata or an internal service). Literal addresses and
 * `localhost` only: names are not resolved. The WHATWG parser has already written the host in one form
 * (`0x7f.1` and `2130706433` as `127.0.0.1`, IPv6 compressed and bracketed, IPv4-mapped IPv6 in hex).
 */
const TWO = "(\\.\\d{1,3}){2}";
/** Made at each check (a provider answer's few URLs), so that a bundle that never checks one carries none of it. */
const hostPattern = (): RegExp =>
  new RegExp(
    `^(${[
      "(0|10|127)(\\.\\d{1,3}){3}", // this network, private, loopback
      `169\\.254${TWO}`, // link-local: cloud metadata
      `172\\.(1[6-9]|2\\d|3[01])${TWO}`,
      `192\\.168${TWO}`,
      `100\\.(6[4-9]|[7-9]\\d|1[01]\\d|12[0-7])${TWO}`, // carrier-grade NAT
      "255\\.255\\.255\\.255",
      "(.+\\.)?localhost\\.?",
      "metadata\\.google\\.internal\\.?",
      "\\[(::1?|f[cd][0-9a-f]{2}:.*|fe[89ab][0-9a-f]:.*|::ffff:.*)\\]", // loopback, unspecified, unique-local, link-local, IPv4-mapped
    ].join("|")})$`, // no "i": the URL parser writes hosts in lower case
  );

/** True when `url` names a loopback, private, link-local or cloud-metadata host (a literal address, or `localhost`). */
export function isInternalUrl(url: string): boolean {
  try {
    return hostPattern().test(new URL(url).hostname);
  } catch {
    return false;
  }
}
