import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { startLoopbackPushService } from "./testing/loopbackPushService.ts";

const scenario = `
turns:
  - match: write
    steps:
      - tools:
          - name: Write
            input: { path: notes.md, content: "# Notes\\n" }
      - say: "Done: {{result}}"
`;

describe("web push over the real server", () => {
  let t: TestServer;
  let scenarioDir: ReturnType<typeof tempDir>;
  let service: Awaited<ReturnType<typeof startLoopbackPushService>>;

  beforeAll(async () => {
    scenarioDir = tempDir();
    const file = join(scenarioDir.path, "write.yaml");
    writeFileSync(file, scenario);
    service = await startLoopbackPushService();
    t = await startTestServer({ model: `scripted:${file}` });
  });
  afterAll(async () => {
    await t.stop();
    await service.close();
    scenarioDir.remove();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${t.origin}${path}`, {
      method: "POST",
      headers: { ...t.browserHeaders, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("[U3] a device subscribes; a permission request pushes to it, and its notification action answers exactly once", async () => {
    const key = await fetch(`${t.origin}/push/key`, { headers: t.browserHeaders });
    expect(((await key.json()) as { publicKey: string }).publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(existsSync(join(t.workspace, ".zcode", "push-vapid.json"))).toBe(true);
    expect((await post("/push/subscribe", { endpoint: "not a url", keys: {} })).status).toBe(400);
    expect((await post("/push/subscribe", service.subscription)).status).toBe(201);

    const { client } = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    client.send({ type: "session.create", title: "Notes" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "please write notes" });
    const requested = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    const interactionId = requested.entry.request.interactionId;

    const push = await service.next(1);
    expect(push.payload).toMatchObject({
      interactionId,
      kind: "permission",
      agent: "plangate",
      sessionTitle: "Notes",
      text: "Write notes.md",
      actions: [
        { id: "allow_once", label: "Allow once" },
        { id: "deny", label: "Deny" },
      ],
    });

    const action = { interactionId, action: "allow_once", deviceLabel: "Chrome on Android" };
    const [first, second] = [
      await post("/push/action", action),
      await post("/push/action", action),
    ];
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    const resolved = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved.entry).toMatchObject({
      outcome: {
        type: "decided",
        decision: "allow_once",
        by: { label: "Chrome on Android", via: "notification" },
      },
    });
    await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "tool.result",
    );
    expect(existsSync(join(t.workspace, "notes.md"))).toBe(true);
    expect(
      client.frames.filter(
        (frame) => frame.type === "event" && frame.entry.kind === "interaction.resolved",
      ),
    ).toHaveLength(1);
    client.close();
  });
});
