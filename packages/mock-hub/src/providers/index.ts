/** The providers the mock hub serves under the router, each in its own module (one line here per provider). */
import { DEEPINFRA } from "./deepinfra.js";
import { FAL_AI } from "./falAi.js";
import { FEATHERLESS_AI } from "./featherlessAi.js";
import { GROQ } from "./groq.js";
import { NOVITA } from "./novita.js";
import { NSCALE } from "./nscale.js";
import { OVHCLOUD } from "./ovhcloud.js";
import { REPLICATE } from "./replicate.js";
import type { MockProvider } from "./route.js";
import { SCALEWAY } from "./scaleway.js";
import { TOGETHER } from "./together.js";
import { TOGETHER_TEXT } from "./togetherText.js";
import { WAVESPEED } from "./wavespeed.js";
import { ZAI_ORG } from "./zaiOrg.js";

export const MOCK_PROVIDERS: readonly MockProvider[] = [
  TOGETHER,
  TOGETHER_TEXT,
  REPLICATE,
  FAL_AI,
  WAVESPEED,
  NSCALE,
  ZAI_ORG,
  DEEPINFRA,
  FEATHERLESS_AI,
  GROQ,
  NOVITA,
  OVHCLOUD,
  SCALEWAY,
];
