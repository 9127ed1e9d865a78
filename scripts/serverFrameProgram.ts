import type { Plugin } from "vite";
import { ServerFrame, StoredEntry } from "../src/protocol/index.ts";
import { compileSchemas } from "../src/protocol/schemaProgram.ts";

export const SERVER_FRAME_PROGRAM_ID = "virtual:server-frame-program";
const resolvedId = `\0${SERVER_FRAME_PROGRAM_ID}`;

/**
 * Issue 15: serves the protocol's ServerFrame and StoredEntry schemas to the page compiled into
 * a plain-JSON program (src/protocol/schemaProgram.ts), so the page checks frames without zod.
 * Compiled when the config loads: a dev server picks up a schema change on restart.
 */
export function serverFrameProgram(): Plugin {
  return {
    name: "plangate-server-frame-program",
    resolveId(id) {
      return id === SERVER_FRAME_PROGRAM_ID ? resolvedId : undefined;
    },
    load(id) {
      if (id !== resolvedId) return undefined;
      const program = compileSchemas({ ServerFrame, StoredEntry });
      return `export default ${JSON.stringify(program)};`;
    },
  };
}
