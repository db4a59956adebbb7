// Loaded into the Portkey gateway's process (`node --import`): serves it with the pinned
// `@hono/node-server`, binds it to loopback (it listens on every interface and has no host flag),
// and tells the parent which port it got.
import { register } from "node:module";
import net from "node:net";

register("./portkey-hooks.mjs", import.meta.url, { data: { nodeServer: import.meta.resolve("@hono/node-server") } });

const listen = net.Server.prototype.listen;
// The gateway calls `listen(port, undefined, callback)` once.
net.Server.prototype.listen = function (port, ...rest) {
  this.once("listening", () => process.send?.({ port: this.address().port }));
  return listen.call(
    this,
    port,
    "127.0.0.1",
    rest.find((arg) => typeof arg === "function"),
  );
};
