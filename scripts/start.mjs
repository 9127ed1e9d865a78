// `npm start`: runs the bundled server, rebuilding the bundle first when any of its sources
// changed (the server then rebuilds the page when stale, unless --no-build).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBundle } from "./serverBundle.mjs";

let bundle;
try {
  bundle = await ensureBundle(resolve(import.meta.dirname, ".."));
} catch (error) {
  console.error(`plangate: could not build the server (${error.message.split("\n")[0]}).`);
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
