import type { ModelMessage } from "../models/provider.ts";
import { compactConversation } from "./compaction.ts";

const user = (content: string): ModelMessage => ({ role: "user", content });
const assistant = (content: string, calls: string[] = []): ModelMessage => ({
  role: "assistant",
  content,
  toolCalls: calls.map((name, index) => ({ id: `${content}-${index}`, name, input: {} })),
});
const tool = (id: string, content: string): ModelMessage => ({
  role: "tool",
  toolCallId: id,
  name: "Read",
  content,
  isError: false,
});

const long = (label: string) => `${label} ${"x".repeat(995)}`;
const conversation: ModelMessage[] = [
  user("first question about the cache"),
  assistant("a1", ["Read", "Grep"]),
  tool("a1-0", long("r1")),
  tool("a1-1", long("r2")),
  assistant(long("answer one")),
  user("second question"),
  assistant(long("answer two")),
  user("third question"),
  assistant("a3", ["Read"]),
  tool("a3-0", long("r3")),
  assistant("done"),
];

describe("compaction", () => {
  it("leaves a conversation under the limit alone", async () => {
    const result = await compactConversation(conversation, { maxChars: 1_000_000 });
    expect(result).toEqual({ messages: conversation, compacted: 0 });
  });

  it("replaces the oldest messages with a summary and keeps whole turns from a user message on", async () => {
    const result = await compactConversation(conversation, { maxChars: 4_000 });
    expect(result.compacted).toBe(7);
    const [summary, ...kept] = result.messages;
    expect(kept).toEqual(conversation.slice(7));
    expect(summary).toMatchObject({ role: "user" });
    const text = (summary as { content: string }).content;
    expect(text).toMatch(/^<system-reminder>/);
    expect(text).toContain("7 messages");
    expect(text).toContain("- first question about the cache");
    expect(text).toContain("- second question");
    expect(text).toContain("Read ×1, Grep ×1");
  });

  it("always keeps the latest user message, even when it alone is over the budget", async () => {
    const result = await compactConversation(conversation, { maxChars: 100 });
    expect(result.messages.slice(1)).toEqual(conversation.slice(7));
  });

  it("[P11] puts the plan file back as a plan-file reference right after the summary", async () => {
    const result = await compactConversation(conversation, {
      maxChars: 4_000,
      planFile: async () => ({
        path: ".zcode/plans/plan-s.md",
        text: "# The plan\n\n1. Step",
        truncated: false,
      }),
    });
    const reference = result.messages[1] as { role: string; content: string };
    expect(reference.role).toBe("user");
    expect(reference.content).toMatch(
      /^<system-reminder>\nA plan file from plan mode exists at \.zcode\/plans\/plan-s\.md/,
    );
    expect(reference.content).toContain("# The plan\n\n1. Step");
    expect(reference.content).toMatch(/keep working on it/);
    expect(result.messages.slice(2)).toEqual(conversation.slice(7));
  });

  it("[P11] without a plan file there is no reference, and none is read when nothing is compacted", async () => {
    let reads = 0;
    const planFile = async () => {
      reads++;
      return undefined;
    };
    expect(
      (await compactConversation(conversation, { maxChars: 4_000, planFile })).messages,
    ).toHaveLength(5);
    await compactConversation(conversation, { maxChars: 1_000_000, planFile });
    expect(reads).toBe(1);
  });
});
