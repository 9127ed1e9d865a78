import { MCP_MODEL_PREFIX } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { SessionProjections } from "./sessionProjection.ts";

/** A log holding one session "s" that an MCP agent drives. */
function mcpSessionLog(db: ReturnType<typeof openDatabase>): SessionLog {
  const log = new SessionLog(db, new FakeClock());
  log.createSession({
    id: "s",
    title: "agent",
    model: `${MCP_MODEL_PREFIX}agent`,
    mode: { permissionMode: "build", planEnabled: false },
  });
  return log;
}

describe("an MCP agent's session projection (X1: the agent keeps its own conversation)", () => {
  it("[X1] folds no model conversation from the agent's calls; a model turn later reads it whole from the log", () => {
    const db = openDatabase(":memory:");
    try {
      const log = mcpSessionLog(db);
      const projections = new SessionProjections(log);
      const input = { questions: [{ question: "Which?", header: "Pick", options: [] }] };
      log.append("s", { kind: "tool.call", callId: "c1", name: "ask_user_question", input });
      const projection = projections.get("s");
      log.append("s", { kind: "tool.call", callId: "c2", name: "ask_user_question", input });
      log.append("s", {
        kind: "tool.result",
        callId: "c2",
        name: "ask_user_question",
        isError: false,
        output: "answered",
      });
      expect(projection.seq()).toBe(4);
      expect(projection.weighedConversation().messages).toEqual([]);

      const whole = projections.withConversation("s");
      expect(whole.conversational).toBe(true);
      expect(JSON.stringify(whole.weighedConversation().messages)).toContain("answered");
      expect(projections.get("s")).toBe(whole);
      projections.dispose();
    } finally {
      db.close();
    }
  });

  it("[X1] a projection loaded from read entries (take-over, restart) folds none either", () => {
    const db = openDatabase(":memory:");
    try {
      const log = mcpSessionLog(db);
      const input = { questions: [{ question: "Which?", header: "Pick", options: [] }] };
      log.append("s", { kind: "tool.call", callId: "c1", name: "ask_user_question", input });
      const projections = new SessionProjections(log);
      const loaded = projections.load("s", log.entriesAfter("s", 0));
      expect(loaded.conversational).toBe(false);
      expect(projections.get("s")).toBe(loaded);
      projections.dispose();
    } finally {
      db.close();
    }
  });
});
