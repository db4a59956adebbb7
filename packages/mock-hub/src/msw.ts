import { http, type HttpHandler } from "msw";
import { createMockHub } from "./hub.js";
import type { MockHubConfig, MockHubCore } from "./types.js";

/** Options of `createMockHubHandlers`. */
export interface MockHubHandlersOptions {
  /** Where the handlers answer, e.g. "https://router.huggingface.co/hf-inference". */
  baseUrl: string;
}

/** msw 2 handlers that pass every request under `baseUrl` to the same core as the loopback server. */
export function createMockHubHandlers(
  hubOrConfig: MockHubCore | MockHubConfig,
  options: MockHubHandlersOptions,
): HttpHandler[] {
  const hub = isHub(hubOrConfig) ? hubOrConfig : createMockHub(hubOrConfig);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  return [http.all(`${baseUrl}/*`, ({ request }) => hub.handle(request, { basePath }))];
}

function isHub(value: MockHubCore | MockHubConfig): value is MockHubCore {
  return typeof (value as Partial<MockHubCore>).handle === "function";
}

export type { MockHubConfig, MockHubCore } from "./types.js";
