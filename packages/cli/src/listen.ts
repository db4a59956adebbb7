import { type Io, UsageError } from "./io";

/** Where a client connects to a server listening on every interface. */
const WILDCARDS: Record<string, string> = { "0.0.0.0": "127.0.0.1", "::": "::1" };

/** `--host`: 127.0.0.1 unless given; "" is refused, since node would take it as every interface. */
export function hostFlag(value: string | undefined): string {
  if (value === undefined) return "127.0.0.1";
  const host = /^\[(.*)\]$/.exec(value)?.[1] ?? value;
  if (host.trim() === "") {
    const allowed = "127.0.0.1 (the default), ::1, or 0.0.0.0 / :: for every interface";
    throw new UsageError(`--host must be an address or host name to listen on: ${allowed} (got "${value}")`);
  }
  return host;
}

/**
 * Prints the URL a client connects to (loopback for a wildcard address, IPv6 bracketed) on stdout;
 * off loopback, a warning on stderr that the server is reachable from the network and why it matters.
 */
export function announce(io: Pick<Io, "stdout" | "stderr">, address: string, port: number, risk: string): void {
  const client = WILDCARDS[address] ?? address;
  io.stdout.write(`http://${client.includes(":") ? `[${client.replace("%", "%25")}]` : client}:${port}\n`);
  if (isLoopback(address)) return;
  const where = WILDCARDS[address] ? `every interface (${address})` : address;
  io.stderr.write(`hfkit: warning: listening on ${where}, reachable from the network: ${risk}\n`);
}

function isLoopback(address: string): boolean {
  return address === "::1" || /^(::ffff:)?127\./.test(address);
}
