import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { danglingCalls, hasOpenTurn, toModelMessages } from "./conversation.ts";

const log = (...entries: SessionEntry[]): StoredEntry[] =>
  entries.map((entry, index) => ({ seq: index + 1, at: 0, entry }));

describe("conversation from the log", () => {
  it("joins a reply with its tool calls and follows it with their results", () => {
    const messages = toModelMessages(
      log(
        {
          kind: "session.created",
          title: "",
          model: "m",
          mode: { permissionMode: "build", planEnabled: false },
        },
        { kind: "user.message", text: "hi" },
        { kind: "turn.started" },
        { kind: "assistant.message", text: "looking" },
        { kind: "tool.call", callId: "a", name: "Read", input: { path: "x" } },
        { kind: "tool.call", callId: "b", name: "Glob", input: { pattern: "*" } },
        { kind: "user.message", text: "also this" },
        { kind: "tool.result", callId: "a", name: "Read", isError: false, output: "A" },
        { kind: "tool.result", callId: "b", name: "Glob", isError: true, output: "B" },
        { kind: "assistant.message", text: "done" },
        { kind: "turn.ended", reason: "completed" },
      ),
    );
    expect(messages).toEqual([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "looking",
        toolCalls: [
          { id: "a", name: "Read", input: { path: "x" } },
          { id: "b", name: "Glob", input: { pattern: "*" } },
        ],
      },
      { role: "tool", toolCallId: "a", name: "Read", content: "A", isError: false },
      { role: "tool", toolCallId: "b", name: "Glob", content: "B", isError: true },
      { role: "user", content: "also this" },
      { role: "assistant", content: "done", toolCalls: [] },
    ]);
  });

  it("gives a call that never got a result an error result when its turn ended", () => {
    const entries = log(
      { kind: "user.message", text: "go" },
      { kind: "turn.started" },
      { kind: "tool.call", callId: "a", name: "Read", input: {} },
      { kind: "turn.ended", reason: "cancelled" },
      { kind: "user.message", text: "again" },
    );
    const messages = toModelMessages(entries);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "a", name: "Read", input: {} }],
    });
    expect(messages[2]).toMatchObject({ role: "tool", toolCallId: "a", isError: true });
    expect(messages[3]).toEqual({ role: "user", content: "again" });
    expect(danglingCalls(entries)).toEqual([]);
    expect(hasOpenTurn(entries)).toBe(false);
  });

  it("finds the calls of an open turn that still need to run", () => {
    const entries = log(
      { kind: "user.message", text: "go" },
      { kind: "turn.started" },
      { kind: "tool.call", callId: "a", name: "Read", input: {} },
      { kind: "tool.call", callId: "b", name: "Read", input: { path: "b" } },
      { kind: "tool.result", callId: "a", name: "Read", isError: false, output: "" },
    );
    expect(hasOpenTurn(entries)).toBe(true);
    expect(danglingCalls(entries)).toEqual([{ callId: "b", name: "Read", input: { path: "b" } }]);
  });
});
