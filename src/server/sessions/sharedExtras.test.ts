import { colourQuestion, createHarness, flush } from "../interactions/registryHarness.ts";
import { decidePermission } from "../permissions/decide.ts";
import {
  type AskUserQuestionInput,
  askUserQuestionTool,
  type FilledAskUserQuestionInput,
} from "../tools/askUserQuestion.ts";
import type { ToolContextExtras, ToolContract } from "../tools/contract.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { ToolExecutor } from "./toolExecutor.ts";

describe("a session's tool-context extras (B3: a burst of waiting calls)", () => {
  it("[B3] calls waiting in one session share the extras made once; the handler sees them; they go with the last call", async () => {
    const h = createHarness({ autoContinue: false });
    const seen: (string | undefined)[] = [];
    const spied: ToolContract<AskUserQuestionInput, FilledAskUserQuestionInput> = {
      ...askUserQuestionTool,
      async run(filled, context) {
        seen.push(context.currentModel?.());
        return askUserQuestionTool.run(filled, context);
      },
    };
    let made = 0;
    const executor = new ToolExecutor({
      tools: new ToolRegistry([spied as ToolContract<unknown>]),
      interactions: h.registry,
      permissions: decidePermission,
      workspace: "/tmp",
      contextFor: (sessionId): ToolContextExtras => {
        made += 1;
        return { currentModel: () => `model of ${sessionId}` };
      },
    });
    const call = (callId: string) =>
      executor.run(
        "sess_1",
        { callId, name: "AskUserQuestion", input: { questions: [colourQuestion] } },
        () => ({ permissionMode: "yolo", planEnabled: false }),
        new AbortController().signal,
      );
    const waiting = [call("call_1"), call("call_2"), call("call_3")];
    await flush();
    expect(h.registry.pending("sess_1")).toHaveLength(3);
    expect(made).toBe(1);
    for (const { request } of h.registry.pending("sess_1")) {
      h.registry.answer(request.interactionId, { [colourQuestion.question]: { labels: ["Red"] } });
    }
    const results = await Promise.all(waiting);
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(seen).toEqual(Array(3).fill("model of sess_1"));

    const later = call("call_4");
    await flush();
    expect(made).toBe(2);
    const [pending] = h.registry.pending("sess_1");
    h.registry.cancel(pending!.request.interactionId);
    await later;
  });
});
