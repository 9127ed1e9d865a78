import { describe, expect, it } from "vitest";
import type { ClientFrame } from "../../protocol/index.ts";
import { runComposerInput } from "./commands.ts";
import { parseComposerInput } from "./parseComposerInput.ts";

function recorder(connected = true) {
  const frames: ClientFrame[] = [];
  return {
    frames,
    target: {
      prompt: (sessionId: string, text: string) => {
        if (connected) frames.push({ type: "prompt", sessionId, text });
        return connected;
      },
      setMode: (sessionId: string, mode: "plan" | "build" | "edit" | "yolo" | "auto") => {
        if (connected) frames.push({ type: "mode.set", sessionId, mode });
        return connected;
      },
    },
  };
}

describe("parseComposerInput", () => {
  it("[W1] reads a slash command with its argument", () => {
    expect(parseComposerInput("  /Mode  yolo ")).toEqual({
      type: "command",
      name: "mode",
      arg: "yolo",
    });
    expect(parseComposerInput("/plan add a cache\nwith tests")).toEqual({
      type: "command",
      name: "plan",
      arg: "add a cache\nwith tests",
    });
    expect(parseComposerInput("/plan")).toEqual({ type: "command", name: "plan", arg: "" });
  });

  it("treats anything else, including a leading path, as a prompt", () => {
    expect(parseComposerInput(" hello ")).toEqual({ type: "prompt", text: "hello" });
    expect(parseComposerInput("/etc/hosts looks odd")).toEqual({
      type: "prompt",
      text: "/etc/hosts looks odd",
    });
  });
});

describe("runComposerInput", () => {
  it("[P2] /mode <name> sends mode.set", () => {
    const { frames, target } = recorder();
    expect(runComposerInput(parseComposerInput("/mode yolo"), "s1", target)).toEqual({
      sent: true,
    });
    expect(frames).toEqual([{ type: "mode.set", sessionId: "s1", mode: "yolo" }]);
  });

  it("[P2] /plan [task] enters plan, then sends the task", () => {
    const { frames, target } = recorder();
    runComposerInput(parseComposerInput("/plan add caching"), "s1", target);
    expect(frames).toEqual([
      { type: "mode.set", sessionId: "s1", mode: "plan" },
      { type: "prompt", sessionId: "s1", text: "add caching" },
    ]);
  });

  it("explains an unknown command or mode and sends nothing", () => {
    const { frames, target } = recorder();
    expect(runComposerInput(parseComposerInput("/frob"), "s1", target)).toEqual({
      sent: false,
      problem: { key: "composer.unknownCommand", vars: { name: "frob" } },
    });
    expect(runComposerInput(parseComposerInput("/mode fast"), "s1", target)).toEqual({
      sent: false,
      problem: { key: "composer.unknownMode", vars: { name: "fast" } },
    });
    expect(runComposerInput(parseComposerInput("/mode"), "s1", target)).toMatchObject({
      sent: false,
      problem: { key: "composer.missingMode" },
    });
    expect(frames).toEqual([]);
  });

  it("keeps the text when the connection is down", () => {
    const { target } = recorder(false);
    expect(runComposerInput(parseComposerInput("hello"), "s1", target)).toEqual({
      sent: false,
      problem: { key: "composer.notSent" },
    });
  });
});
