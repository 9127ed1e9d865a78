import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import { WRITE_NOTES_TURN } from "../testing/scenarioTurns.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { startLoopbackPushService } from "./testing/loopbackPushService.ts";

const scenario = `
turns:${WRITE_NOTES_TURN}
  - match: plan
    steps:
      - tools: [{ name: EnterPlanMode }]
      - tools:
          - name: ExitPlanMode
            input: { plan: "# Drop the table\\n\\n1. Drop it." }
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
    t = await startTestServer({ model: `scripted:${file}`, allowLoopbackPushEndpoints: true });
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
      overMcp: false,
      sessionTitle: "Notes",
      text: "Write · notes.md",
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

  it("[U3] a plan review is never answered through /push/action: notifications offer it no buttons", async () => {
    const { client } = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    client.send({ type: "session.create", title: "Plan" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "make a plan" });
    const requested = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    const request = requested.entry.request;
    if (request.kind !== "question") throw new Error("a plan review is a question");
    const approve = request.questions[0]?.options[0]?.label ?? "";
    expect(approve).toMatch(/^Approve/);

    const refused = await post("/push/action", {
      interactionId: request.interactionId,
      action: approve,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "INVALID_ANSWER" });
    const { client: later } = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    const inbox = await later.next("inbox.snapshot");
    expect(inbox.items.map((item) => item.request.interactionId)).toContain(request.interactionId);
    later.close();
    client.close();
  });
});

describe("[U3] what a push subscription may be", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  const subscribe = (body: unknown) =>
    fetch(`${t.origin}/push/subscribe`, {
      method: "POST",
      headers: { ...t.browserHeaders, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const keys = { p256dh: `B${"a".repeat(86)}`, auth: "b".repeat(22) };

  it("[U3] only an https push service on a name; never plain http, an address, localhost or credentials", async () => {
    for (const endpoint of [
      "http://127.0.0.1:9/push",
      "http://push.example/device",
      "https://127.0.0.1/push",
      "https://10.0.0.8/push",
      "https://[::1]/push",
      "https://localhost/push",
      "https://intranet/push",
      "https://user:pw@push.example/device",
      "file:///etc/passwd",
    ]) {
      const res = await subscribe({ endpoint, keys });
      expect(res.status, endpoint).toBe(400);
    }
    expect((await subscribe({ endpoint: "https://fcm.googleapis.com/wp/abc", keys })).status).toBe(
      201,
    );
  });

  it("[U3] keys of the wrong size and oversized bodies are refused", async () => {
    const endpoint = "https://push.example/keys";
    expect((await subscribe({ endpoint, keys: { ...keys, p256dh: "short" } })).status).toBe(400);
    expect((await subscribe({ endpoint, keys: { ...keys, auth: "c".repeat(200) } })).status).toBe(
      400,
    );
    const huge = JSON.stringify({ endpoint, keys, deviceLabel: "x".repeat(20_000) });
    expect((await subscribe(huge)).status).toBe(413);
  });

  it("[U3] at most 20 devices; a known device still updates, a new one beyond the cap is refused", async () => {
    for (let index = 0; index < 30; index++) {
      const res = await subscribe({ endpoint: `https://push.example/device-${index}`, keys });
      if (res.status === 409) {
        expect(await res.json()).toMatchObject({ error: expect.stringContaining("20 devices") });
        expect(
          (await subscribe({ endpoint: "https://fcm.googleapis.com/wp/abc", keys })).status,
        ).toBe(201);
        return;
      }
      expect(res.status).toBe(201);
    }
    throw new Error("the cap never applied");
  });
});
