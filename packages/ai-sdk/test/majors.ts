/**
 * The AI SDK majors the provider is tested under, each with its own functions and error classes, and the
 * entry point of ours it is used with. Their functions are typed as ai 7's: the tests use what the three share.
 */
import * as provider2 from "@ai-sdk/provider-v2";
import * as provider3 from "@ai-sdk/provider-v3";
import * as provider4 from "@ai-sdk/provider";
import * as ai7 from "ai";
import * as ai5 from "ai5";
import * as ai6 from "ai6";
import { createHfkit as createHfkit5 } from "../src/ai5";
import { createHfkit as createHfkit7 } from "../src/ai7";
import { createHfkit, type HfkitProviderSettings } from "../src/index";

type Ai = typeof ai7;
type Provider = ReturnType<typeof createHfkit>;

export interface Major {
  /** As the test names it. */
  name: string;
  /** The specification its models follow. */
  spec: "v2" | "v3" | "v4";
  /** Our provider for it. */
  create: (settings: HfkitProviderSettings) => Provider;
  generateText: Ai["generateText"];
  streamText: Ai["streamText"];
  embed: Ai["embed"];
  embedMany: Ai["embedMany"];
  generateImage: Ai["generateImage"];
  transcribe: Ai["transcribe"];
  generateSpeech: Ai["generateSpeech"];
  /** ai 6 and 7 only. */
  rerank: Ai["rerank"] | undefined;
  tool: Ai["tool"];
  jsonSchema: Ai["jsonSchema"];
  stepCountIs: Ai["stepCountIs"];
  /** The error classes its provider package defines (which the major's functions throw and recognise). */
  errors: Pick<
    typeof provider4,
    | "AISDKError"
    | "APICallError"
    | "InvalidArgumentError"
    | "InvalidPromptError"
    | "NoSuchModelError"
    | "UnsupportedFunctionalityError"
  >;
}

// The warnings the tests provoke are checked in the results, not printed.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const as = <T>(value: unknown): T => value as T;

export const MAJORS: Major[] = [
  {
    name: "ai 5 with @hfkit/ai-sdk/ai5",
    spec: "v2",
    create: as(createHfkit5),
    ...as<Omit<Major, "name" | "spec" | "create" | "errors" | "rerank">>({
      ...ai5,
      generateImage: ai5.experimental_generateImage,
      transcribe: ai5.experimental_transcribe,
      generateSpeech: ai5.experimental_generateSpeech,
    }),
    rerank: undefined,
    errors: as(provider2),
  },
  {
    name: "ai 6 with @hfkit/ai-sdk",
    spec: "v3",
    create: createHfkit,
    ...as<Omit<Major, "name" | "spec" | "create" | "errors">>({
      ...ai6,
      transcribe: ai6.experimental_transcribe,
      generateSpeech: ai6.experimental_generateSpeech,
    }),
    errors: as(provider3),
  },
  { name: "ai 7 with @hfkit/ai-sdk", spec: "v3", create: createHfkit, ...ai7, errors: provider4 },
  { name: "ai 7 with @hfkit/ai-sdk/ai7", spec: "v4", create: as(createHfkit7), ...ai7, errors: provider4 },
];

/** The 1×1 PNG the hub's text-to-image answers, and the empty WAV its text-to-speech answers. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
export const WAV = Uint8Array.from(atob("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="), (c) =>
  c.charCodeAt(0),
);
