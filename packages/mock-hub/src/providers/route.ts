/** What one provider's module of the mock hub gives: its routes under the router and the default mappings of its `hfkit/...` models. */
import type { ProviderMappingEntry } from "../types.js";

/** Answers one POST under the router: the parsed JSON body, the hub's origin, the request, its path. */
export type Serve = (
  body: Record<string, unknown>,
  origin: string,
  request: Request,
  path: string,
) => Response | Promise<Response>;

/** One POST route of a provider; `model` names the model the faults are matched on (the body's `model` by default). */
export interface ProviderRoute {
  readonly pattern: RegExp;
  readonly serve: Serve;
  readonly model?: (path: string, body: Record<string, unknown>) => string;
}

/** One GET route of a provider (a queue's status, a result): undefined when the path is not its. */
export type ProviderGet = (request: Request, path: string) => Response | undefined;

/** A provider as the mock hub serves it. */
export interface MockProvider {
  readonly routes: readonly ProviderRoute[];
  readonly gets?: readonly ProviderGet[];
  /** `model id → provider → mapping`, merged into the Hub's defaults. */
  readonly mappings?: Readonly<Record<string, Record<string, ProviderMappingEntry>>>;
}
