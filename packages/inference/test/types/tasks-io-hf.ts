// Compiled with tasks-io*.ts against the real 4.13 only (tsconfig.hf.json): `snippets` is 4.13's and not
// hfkit's, so this file does not compile if `@huggingface/inference` resolves to anything else.
import { snippets } from "@huggingface/inference";

export const fromTheRealPackage: object = snippets;
