import type { ClientFrame } from "../../protocol/index.ts";
import {
  connectionLost,
  EMPTY_OUTBOX,
  flushOutbox,
  heldActionFor,
  heldMessagesFor,
  type Outbox,
  outboxKey,
  receiptArrived,
  recordFrame,
} from "./outbox.ts";

const approve: ClientFrame = {
  type: "interaction.answer",
  interactionId: "int_1",
  answers: { "Ready?": { labels: ["Approve"] } },
};
const draft = (text: string): ClientFrame => ({
  type: "interaction.draft",
  interactionId: "int_1",
  draft: { page: 0, picks: {}, other: {}, feedback: text },
});
const prompt = (text: string): ClientFrame => ({ type: "prompt", sessionId: "s1", text });

let serial = 0;
const record = (outbox: Outbox, frame: ClientFrame, sent: boolean) =>
  recordFrame(outbox, outboxKey(frame, ++serial), frame, sent);

function flushed(outbox: Outbox) {
  const sent: ClientFrame[] = [];
  const next = flushOutbox(outbox, (frame) => {
    sent.push(frame);
    return true;
  });
  return { next, sent };
}

describe("the outbox", () => {
  it("[W7] holds an action made offline and sends it exactly once when the connection is back", () => {
    let outbox = record(EMPTY_OUTBOX, approve, false);
    expect(heldActionFor(outbox, "int_1")).toEqual(approve);

    const first = flushed(outbox);
    expect(first.sent).toEqual([approve]);
    outbox = first.next;
    expect(heldActionFor(outbox, "int_1")).toBeUndefined();
    // A second welcome on the same connection sends nothing again.
    expect(flushed(outbox).sent).toEqual([]);

    outbox = receiptArrived(outbox, "int_1");
    expect(outbox).toEqual(EMPTY_OUTBOX);
    // Nor does a later reconnect: the receipt settled it.
    expect(flushed(connectionLost(outbox)).sent).toEqual([]);
  });

  it("[W7] replays a sent action whose receipt was lost with the connection, once per connection", () => {
    let outbox = record(EMPTY_OUTBOX, approve, true);
    expect(heldActionFor(outbox, "int_1")).toBeUndefined();
    outbox = connectionLost(outbox);
    expect(heldActionFor(outbox, "int_1")).toEqual(approve);
    const { next, sent } = flushed(outbox);
    expect(sent).toEqual([approve]);
    // The server's receipt (accepted, or rejected as already resolved) settles it: the card re-arms.
    expect(receiptArrived(next, "int_1").items).toEqual([]);
  });

  it("[W7] matches receipts in order: a draft's receipt does not settle the answer sent after it", () => {
    let outbox = record(EMPTY_OUTBOX, draft("smaller steps"), true);
    outbox = record(outbox, approve, true);
    outbox = receiptArrived(outbox, "int_1");
    expect(outbox.items.map((item) => item.frame.type)).toEqual(["interaction.answer"]);
    // The connection drops before the answer's receipt: it goes out again on the next one.
    const { sent } = flushed(connectionLost(outbox));
    expect(sent).toEqual([approve]);
  });

  it("[W7] keeps only the newest held draft, in its place before a later action", () => {
    let outbox = record(EMPTY_OUTBOX, draft("a"), false);
    outbox = record(outbox, draft("ab"), false);
    outbox = record(outbox, approve, false);
    expect(flushed(outbox).sent).toEqual([draft("ab"), approve]);
  });

  it("[W7] holds messages typed offline and sends each once; a sent message is not kept", () => {
    let outbox = record(EMPTY_OUTBOX, prompt("first"), false);
    outbox = record(outbox, prompt("second"), false);
    expect(heldMessagesFor(outbox, "s1")).toEqual(["first", "second"]);
    const { next, sent } = flushed(outbox);
    expect(sent).toEqual([prompt("first"), prompt("second")]);
    expect(next.items).toEqual([]);
    expect(flushed(connectionLost(next)).sent).toEqual([]);
    expect(record(EMPTY_OUTBOX, prompt("online"), true).items).toEqual([]);
  });

  it("[W7] stops at a frame the socket would not take and keeps the rest, in order", () => {
    let outbox = record(EMPTY_OUTBOX, prompt("one"), false);
    outbox = record(outbox, prompt("two"), false);
    const next = flushOutbox(outbox, () => false);
    expect(heldMessagesFor(next, "s1")).toEqual(["one", "two"]);
  });
});
