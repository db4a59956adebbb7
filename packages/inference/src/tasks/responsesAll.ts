/** The Responses API in one module: the chunk `lazy.ts` loads on the first call of `responses` or `responsesStream`. */
export { responses } from "./responses";
export { responsesStream } from "./responsesStream";
