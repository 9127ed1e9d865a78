/**
 * X1: a session an agent drives over MCP names that agent as its model (`mcp/<client>`). Its
 * turns run in the agent; plangate only shows its questions, plans and todos.
 */
export const MCP_MODEL_PREFIX = "mcp/";

export function isDrivenOverMcp(model: string): boolean {
  return model.startsWith(MCP_MODEL_PREFIX);
}

/** The agent's own name, as it introduced itself over MCP. */
export function mcpClientOf(model: string): string {
  return model.slice(MCP_MODEL_PREFIX.length);
}

/** M1: the keyless default, a scripted demo, run when no model is configured. */
export const DEMO_MODEL = "scripted/demo";
