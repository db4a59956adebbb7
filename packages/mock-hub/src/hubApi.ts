/**
 * The Hub's model API (`GET /api/models/{id}`, `…/revision/{rev}`) for the models chat answers: the fields
 * clients read (`pipeline_tag`, `tags`, `library_name`, `inferenceProviderMapping`, …), the pipeline tag
 * always the task the model answers. `expand[]=…` answers those fields only, with `_id` and `id`, as the Hub does.
 */
import { refusedCredentials } from "./credentials.js";
import { jsonResponse } from "./http.js";
import { stableHex } from "./ids.js";
import { isWellFormedId } from "./modelIds.js";
import { hubTask, resolveModel, servedTask } from "./models.js";
import { DEFAULT_PROVIDER_MAPPINGS } from "./providerRoutes.js";
import { PIPELINE_TASKS } from "./pipelines.js";
import type { ModelConfig, ProviderMappingEntry } from "./types.js";

type Models = ReadonlyMap<string, ModelConfig>;
type Card = Record<string, unknown>;

/** What `expand[]` may name (the Hub's list); the ones the hub has no data for are left out of the answer. */
const EXPANDABLE = new Set([
  "author",
  "baseModels",
  "cardData",
  "childrenModelCount",
  "config",
  "createdAt",
  "disabled",
  "downloads",
  "downloadsAllTime",
  "gated",
  "gguf",
  "inference",
  "inferenceProviderMapping",
  "lastModified",
  "library_name",
  "likes",
  "mask_token",
  "model-index",
  "pipeline_tag",
  "private",
  "resourceGroup",
  "safetensors",
  "sha",
  "siblings",
  "spaces",
  "tags",
  "transformersInfo",
  "trendingScore",
  "widgetData",
  "xetEnabled",
]);

const PATH = /^\/api\/models\/([^/]+(?:\/[^/]+)?)(?:\/revision\/[^/]+)?\/?$/;
/** When every mock model was made. */
const CREATED_AT = "2025-01-01T00:00:00.000Z";

/** Whether the hub serves `id`: configured, predefined, a default mapping's, or an `hfkit/<task>` id. */
export function servesModel(id: string, models: Models): boolean {
  return (
    models.has(id) ||
    DEFAULT_PROVIDER_MAPPINGS[id] !== undefined ||
    (id.startsWith("hfkit/") && PIPELINE_TASKS.includes(id.slice(6)))
  );
}

/** A model's provider mapping: its config's, else the default of its id. */
function mappingOf(
  id: string,
  config: ModelConfig | undefined,
): Readonly<Record<string, ProviderMappingEntry>> | undefined {
  return config?.inferenceProviderMapping ?? DEFAULT_PROVIDER_MAPPINGS[id];
}

/** The pipeline `POST /models/{id}` answers for a model with a default mapping of another task than text generation. */
export function mappedTask(id: string, models: Models): string | undefined {
  return servedTask(hubTask(id, models.get(id), mappingOf(id, models.get(id))));
}

/** What the Hub's model API answers from: the hub's models, and its mode. */
interface HubModels {
  models: Models;
  /** Strict: only the models the hub serves have a card; lenient: every id that can exist (chat answers them all). */
  strict: boolean;
}

/**
 * `GET /api/models/{id}`: the model's card, for every id chat answers (lenient: any id that can exist; strict: the
 * models the hub serves), else 404; 401 for credentials the Hub refuses (`credentials.ts`).
 */
export function hubModelApi(request: Request, path: string, { models, strict }: HubModels): Response | undefined {
  if (!path.startsWith("/api/models/")) return undefined;
  const match = PATH.exec(path);
  if (refusedCredentials(request, strict))
    return jsonResponse(401, { error: "Invalid credentials in Authorization header" });
  const id = match ? decoded(match[1] ?? "") : undefined;
  const served = id !== undefined && isWellFormedId(id) && (!strict || servesModel(id, models));
  if (!served) return jsonResponse(404, { error: "Repository not found" });
  const url = new URL(request.url);
  const expand = [...url.searchParams.getAll("expand[]"), ...url.searchParams.getAll("expand")];
  const unknown = expand.find((field) => !EXPANDABLE.has(field));
  if (unknown !== undefined)
    return jsonResponse(400, { error: `"expand" must be one of [${[...EXPANDABLE].join(", ")}] (got "${unknown}")` });
  const card = modelCard(id, models);
  if (expand.length === 0) return jsonResponse(200, card);
  return jsonResponse(
    200,
    Object.fromEntries(
      Object.entries(card).filter(([field]) => field === "_id" || field === "id" || expand.includes(field)),
    ),
  );
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** What the Hub says of a model the hub serves. */
function modelCard(id: string, models: Models): Card {
  const config = models.get(id);
  const model = resolveModel(id, models);
  const task = hubTask(id, config, mappingOf(id, config));
  const pipelineTag = task === undefined || task === "conversational" ? "text-generation" : task;
  const chat =
    (pipelineTag === "text-generation" || pipelineTag === "image-text-to-text") &&
    model.backend !== "transformers" &&
    model.chatTemplate;
  const library = libraryOf(pipelineTag, model.backend);
  const mapping = mappingList(id, mappingOf(id, config) ?? {});
  const served = mapping.length > 0 || model.providers.length > 0;
  const tgi = model.backend === "tgi" && !model.task;
  const tags = [
    library,
    pipelineTag,
    ...(chat ? ["conversational"] : []),
    ...(tgi ? ["text-generation-inference"] : []),
    "endpoints_compatible",
    "region:us",
  ];
  return {
    _id: stableHex(`_id:${id}`, 24),
    id,
    modelId: id,
    ...(id.includes("/") ? { author: id.split("/")[0] } : {}),
    sha: stableHex(`sha:${id}`, 40),
    createdAt: CREATED_AT,
    lastModified: CREATED_AT,
    private: false,
    disabled: false,
    gated: false,
    pipeline_tag: pipelineTag,
    library_name: library,
    tags,
    downloads: parseInt(stableHex(`downloads:${id}`, 5), 16),
    likes: parseInt(stableHex(`likes:${id}`, 3), 16),
    ...(served ? { inference: "warm" } : {}),
    inferenceProviderMapping: mapping,
  };
}

/** The library a model of that task and server is published for. */
function libraryOf(pipelineTag: string, backend: string): string {
  if (backend === "llamacpp") return "gguf";
  if (pipelineTag === "text-to-image" || pipelineTag === "image-to-image") return "diffusers";
  if (pipelineTag === "feature-extraction" || pipelineTag === "sentence-similarity") return "sentence-transformers";
  return "transformers";
}

/** The Hub's current form of the mapping: a list, each entry naming its provider, in the mapping's order. */
function mappingList(id: string, mapping: Readonly<Record<string, ProviderMappingEntry>>): Card[] {
  return Object.entries(mapping).map(([provider, entry]) => ({ provider, hfModelId: id, ...entry }));
}
