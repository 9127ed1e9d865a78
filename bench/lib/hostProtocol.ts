import type { AskUserQuestionItem, QuestionAnswers } from "../../src/protocol/index.ts";

export interface HostConfig {
  workspace: string;
  dbPath: string;
  distDir: string;
  token: string;
  graceMs: number;
  deadlineMs: number;
  model?: string;
}

export type HostCommand =
  | { cmd: "createSession"; title?: string }
  | { cmd: "ask"; sessionId: string; toolName: string; questions: AskUserQuestionItem[] }
  | { cmd: "answerHead"; sessionId: string; answers?: QuestionAnswers }
  | { cmd: "abortHead"; sessionId: string }
  | { cmd: "mcpArrivals"; since: number }
  | { cmd: "sessionByModel"; model: string }
  | { cmd: "pendingCount"; sessionId: string }
  | { cmd: "usage"; gc?: boolean }
  | { cmd: "pendingTotal" }
  | { cmd: "cancelAllPending" }
  | { cmd: "heapSnapshot"; path: string }
  | { cmd: "close" };

export type HostReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };
