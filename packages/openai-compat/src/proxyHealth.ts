import type { IncomingMessage, ServerResponse } from "node:http";
import { type HealthOptions, healthSnapshot, InputError, type Options, type TargetHealth } from "@hfkit/inference";
import { redisHealthStore } from "./redisHealth";

/** The proxy's `health`: the calls' own option, or with `redis` a Redis URL whose health the proxy's replicas share. */
export type ProxyHealthOptions =
  | false
  | (HealthOptions & {
      /** A `redis://` or `rediss://` URL: replicas share each target's health there (needs the optional peer `ioredis`). */
      redis?: string;
    });

/** The health of a proxy's calls: their option, what `GET /health/targets` answers, and its end. */
export interface ProxyHealth {
  readonly option: Options["health"];
  snapshot(): TargetHealth[];
  close(): Promise<void>;
}

/** The proxy's health; a bad Redis URL (or a Redis URL beside a store) is an InputError before the proxy binds. */
export function proxyHealth(option: ProxyHealthOptions | undefined, logger: Options["logger"]): ProxyHealth {
  const given = typeof option === "object" && option !== null ? option : undefined;
  if (given?.redis === undefined) {
    const snapshot = (): TargetHealth[] => (option === false ? [] : (given?.store?.snapshot() ?? healthSnapshot()));
    return { option, snapshot, close: async () => {} };
  }
  const { redis, ...own } = given;
  if (own.store !== undefined) throw new InputError("Give `health.redis` or `health.store`, not both", "health.redis");
  const store = redisHealthStore(redis, logger ? { logger } : {});
  return { option: { ...own, store }, snapshot: () => store.snapshot(), close: () => store.close() };
}

/** `GET /health/targets`: the proxy's view of each target's health. */
export const isHealthRoute = (req: IncomingMessage): boolean =>
  req.method === "GET" && (req.url ?? "/").split("?")[0]?.replace(/\/+$/, "") === "/health/targets";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Answers the snapshot to a client on this machine only (a proxy bound to another host keeps it to itself). */
export function answerHealth(req: IncomingMessage, res: ServerResponse, health: ProxyHealth): void {
  const local = LOOPBACK.test(req.socket.remoteAddress ?? "");
  const [status, body] = local
    ? [200, health.snapshot()]
    : [404, { error: { message: "No route for GET /health/targets", type: "not_found_error", code: null } }];
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
