import { z } from "zod";
import type { ModelToolSpec } from "../models/provider.ts";
import type { AnyToolContract } from "./contract.ts";

/** The tools a session offers, by name, and their model-facing specs. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyToolContract>();
  private cachedSpecs: ModelToolSpec[] | undefined;

  constructor(tools: readonly AnyToolContract[] = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: AnyToolContract): void {
    if (this.tools.has(tool.name))
      throw new Error(`A tool named ${tool.name} is already registered.`);
    this.tools.set(tool.name, tool);
    this.cachedSpecs = undefined;
  }

  get(name: string): AnyToolContract | undefined {
    return this.tools.get(name);
  }

  list(): AnyToolContract[] {
    return [...this.tools.values()];
  }

  specs(): ModelToolSpec[] {
    this.cachedSpecs ??= this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, {
        io: "input",
        unrepresentable: "any",
      }) as Record<string, unknown>,
    }));
    return this.cachedSpecs;
  }
}
