import { WebSocket } from "ws";
import {
  PROTOCOL_VERSION,
  ServerBatch,
  ServerFrame,
  type ServerMessage,
} from "../../protocol/index.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

/** A raw socket that keeps every message as it came, one array per WebSocket message. */
async function rawClient(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  const messages: ServerMessage[] = [];
  socket.on("message", (data) => messages.push(JSON.parse(data.toString()) as ServerMessage));
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const framesOf = (message: ServerMessage): ServerFrame[] =>
    message.type === "batch" ? message.frames : [message];
  return {
    socket,
    messages,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    frames: () => messages.flatMap(framesOf),
    framesOf,
  };
}

describe("batches: frames of one turn of the event loop as one message (issue 15)", () => {
  const fixture = useScenarioServer(scenario, {
    timings: { graceMs: 60_000, deadlineMs: 120_000 },
  });
  const open = async () => {
    const client = await rawClient(fixture.server().wsUrl, fixture.server().browserHeaders);
    return client;
  };
  let sockets: WebSocket[] = [];
  afterEach(() => {
    for (const socket of sockets) socket.close();
    sockets = [];
  });

  it("[R2] a hello asking for batches gets a tool call's entry, its question and the summary it changes in one message, in order", async () => {
    const client = await open();
    sockets.push(client.socket);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION, batches: true });
    client.send({ type: "session.create", title: "batched" });
    await vi.waitFor(() => expect(client.frames().some((f) => f.type === "snapshot")).toBe(true));
    const snapshot = client.frames().find((f) => f.type === "snapshot");
    const id = snapshot?.type === "snapshot" ? snapshot.session.id : "";
    client.send({ type: "prompt", sessionId: id, text: "ask me" });
    const isQuestion = (f: ServerFrame) =>
      f.type === "event" && f.entry.kind === "interaction.requested";
    await vi.waitFor(() => expect(client.frames().some(isQuestion)).toBe(true));
    const carrier = client.messages.find((m) => client.framesOf(m).some(isQuestion));
    expect(carrier?.type).toBe("batch");
    expect(ServerBatch.safeParse(carrier).success).toBe(true);
    const frames = client.framesOf(carrier as ServerMessage);
    const kinds = frames.map((f) => (f.type === "event" ? f.entry.kind : f.type));
    const call = kinds.indexOf("tool.call");
    expect(call).toBeGreaterThanOrEqual(0);
    expect(kinds.slice(call, call + 2)).toEqual(["tool.call", "interaction.requested"]);
    expect(kinds).toContain("session.upserted");
    const upserted = frames.filter((f) => f.type === "session.upserted").at(-1);
    expect(upserted?.type === "session.upserted" && upserted.session.pendingInteractions).toBe(1);
    // In order and without gaps across all messages: a batch loses nothing and reorders nothing.
    const seqs = client
      .frames()
      .filter((f) => f.type === "event" && f.sessionId === id)
      .map((f) => (f.type === "event" ? f.seq : 0));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    for (const frame of client.frames()) expect(ServerFrame.safeParse(frame).success).toBe(true);
  });

  it("[R2] a hello without batches gets every frame as a message of its own, as before", async () => {
    const client = await open();
    sockets.push(client.socket);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    client.send({ type: "session.create", title: "single" });
    await vi.waitFor(() => expect(client.frames().some((f) => f.type === "snapshot")).toBe(true));
    const snapshot = client.frames().find((f) => f.type === "snapshot");
    const id = snapshot?.type === "snapshot" ? snapshot.session.id : "";
    client.send({ type: "prompt", sessionId: id, text: "ask me" });
    await vi.waitFor(() =>
      expect(
        client.frames().some((f) => f.type === "event" && f.entry.kind === "interaction.requested"),
      ).toBe(true),
    );
    for (const message of client.messages)
      expect(ServerFrame.safeParse(message).success).toBe(true);
  });
});
