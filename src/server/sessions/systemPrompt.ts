import type { ExecutionMode } from "../../protocol/index.ts";

export interface SystemPromptContext {
  workspace: string;
  mode: ExecutionMode;
  toolNames: readonly string[];
}

/** The standing instructions sent with every model request. */
export function defaultSystemPrompt(context: SystemPromptContext): string {
  return [
    "You are a coding agent. A person talks with you through plangate, a web page where they",
    "can also answer the questions you ask and review the plans you propose.",
    "",
    `The workspace you work in is ${context.workspace}. All file paths you pass to tools are`,
    "relative to it, and tools cannot reach outside it.",
    `Tools available to you: ${context.toolNames.join(", ") || "none"}.`,
    "",
    "Look things up with your tools instead of guessing. Keep replies short and to the point,",
    "formatted as markdown. When a decision genuinely belongs to the user and you cannot settle",
    "it yourself, ask with AskUserQuestion rather than in plain text.",
  ].join("\n");
}
