// Node (CommonJS): `node cli.cjs <hub url>`; the SDK comes from `require`, through the exports map.
const sdk = require("@hfkit/inference");

async function main() {
  const { runApp, runtimeName } = await import("./scenarios.mjs");
  const result = await runApp(sdk, process.argv[2]);
  // An error from the CommonJS copy must also be an instance of the ESM copy's class (a shared brand).
  const esm = await import("@hfkit/inference");
  const crossCopyInstanceof =
    new sdk.ValidationError("x", { status: 422, url: "http://127.0.0.1/" }) instanceof esm.ValidationError;
  console.log(
    JSON.stringify({
      runtime: runtimeName(),
      resolved: require.resolve("@hfkit/inference"),
      crossCopyInstanceof,
      ...result,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
