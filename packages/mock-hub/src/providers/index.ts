/** The providers the mock hub serves under the router, each in its own module (one line here per provider). */
import { FAL_AI } from "./falAi.js";
import { NSCALE } from "./nscale.js";
import { REPLICATE } from "./replicate.js";
import type { MockProvider } from "./route.js";
import { TOGETHER } from "./together.js";
import { WAVESPEED } from "./wavespeed.js";
import { ZAI_ORG } from "./zaiOrg.js";

export const MOCK_PROVIDERS: readonly MockProvider[] = [TOGETHER, REPLICATE, FAL_AI, WAVESPEED, NSCALE, ZAI_ORG];
