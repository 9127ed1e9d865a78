import { z } from "zod";
import type { ExecutionMode } from "../../protocol/index.ts";
import type { ToolContract } from "../tools/contract.ts";
import { decidePermission } from "./decide.ts";

const tool = (flags: Partial<ToolContract<unknown>>): ToolContract<unknown> => ({
  name: "T",
  description: "",
  inputSchema: z.unknown(),
  readOnly: false,
  destructive: false,
  run: async () => ({ output: "" }),
  ...flags,
});
const build: ExecutionMode = { permissionMode: "build", planEnabled: false };

describe("default permission policy (no project rules)", () => {
  it("allows read-only tools and asks for the rest in build mode", () => {
    expect(decidePermission(tool({ readOnly: true }), {}, build)).toEqual({ type: "allow" });
    expect(decidePermission(tool({}), {}, build)).toEqual({ type: "ask" });
  });

  it("[Q5] lets tools that ask the user themselves ask in every mode", () => {
    const asker = tool({ requiresUserInteraction: true });
    for (const mode of [build, { permissionMode: "yolo", planEnabled: true }] as const) {
      expect(decidePermission(asker, {}, mode)).toEqual({ type: "ask", by: "tool" });
    }
  });

  it("[P1] denies writing tools in plan mode, even on top of yolo", () => {
    const verdict = decidePermission(tool({}), {}, { permissionMode: "yolo", planEnabled: true });
    expect(verdict).toMatchObject({ type: "deny" });
    expect(decidePermission(tool({}), {}, { permissionMode: "yolo", planEnabled: false })).toEqual({
      type: "allow",
    });
  });
});
