import { fitPayload, MAX_PUSH_PAYLOAD_BYTES } from "./pushLimits.ts";
import type { PushPayload } from "./pushNotifier.ts";

const base: PushPayload = {
  interactionId: "int_1",
  sessionId: "sess_1",
  kind: "question",
  agent: "plangate",
  overMcp: false,
  sessionTitle: "Notes",
  text: "Which colour?",
  actions: [{ id: "Red", label: "Red" }],
  url: "https://laptop.tailnet.ts.net/#/inbox",
};

describe("[U3] a push payload every push service takes", () => {
  it("[U3] a short notification goes out as it is", () => {
    expect(fitPayload(base)).toEqual(base);
  });

  it("[U3] a huge question, title and agent name are clipped; labels too long to carry drop the actions, never the id", () => {
    const long = "x".repeat(10_000);
    const fitted = fitPayload({
      ...base,
      agent: long,
      sessionTitle: long,
      text: long,
      actions: [
        { id: long.slice(0, 1_500), label: long.slice(0, 1_500) },
        { id: "y".repeat(1_500), label: "y".repeat(1_500) },
      ],
    });
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(MAX_PUSH_PAYLOAD_BYTES);
    expect(fitted.text).toMatch(/…$/);
    expect(fitted.text.length).toBeLessThanOrEqual(400);
    expect(fitted.actions).toEqual([]);
    expect(fitted.interactionId).toBe("int_1");
    expect(fitted.url).toBe(base.url);
  });
});
