// Module hooks of the Portkey gateway's process: its `@hono/node-server` import gets the version
// packages/bench pins (the one it resolves on its own cannot stream: see docs/benchmarks.md).
let nodeServer;

export function initialize(data) {
  nodeServer = data.nodeServer;
}

export function resolve(specifier, context, next) {
  if (specifier !== "@hono/node-server") return next(specifier, context);
  return { url: nodeServer, format: "module", shortCircuit: true };
}
