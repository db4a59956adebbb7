/**
 * The tasks that are not chat nor text generation, and the Responses API, as the package exports them:
 * imported statically here, so that a bundler keeps only what the app calls. The package's Node build
 * (`dist/node/`, the `"node"` export condition: Node, Deno, Bun) replaces this module by `lazy.ts`, which
 * loads the same functions on their first call, so that importing the package for chat compiles none of them.
 */
export * from "./all";
