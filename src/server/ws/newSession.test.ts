import { useScenarioServer } from "../testing/scenarioServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { runTokenCommand } from "../tokenCommand.ts";

const scenario = `
turns:
  - steps:
      - say: Hello.
`;

describe("New session", () => {
  const fixture = useScenarioServer(scenario);
  const { server } = fixture;
  const greeted = async () => {
    const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(opened.client);
    return opened.client;
  };
  const newSession = async (client: TestClient) => {
    client.send({ type: "session.create" });
    return (await client.next("snapshot")).session.id;
  };
  const sessionCount = async () => {
    const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(opened.client);
    return opened.welcome.sessions.length;
  };

  it("[W1] pressed again and in two tabs at once, it opens the same empty session instead of another", async () => {
    const a = await greeted();
    const b = await greeted();
    a.send({ type: "session.create" });
    b.send({ type: "session.create" });
    const [first, second] = await Promise.all([a.next("snapshot"), b.next("snapshot")]);
    expect(second.session.id).toBe(first.session.id);
    // The page opens the session this snapshot answers, though it may know it already.
    expect(first.created).toBe(true);
    expect(second.created).toBe(true);
    expect(await newSession(a)).toBe(first.session.id);
    expect(await sessionCount()).toBe(1);
  });

  it("[W1] a session with anything in it is never handed back: a draft, a message, a title", async () => {
    const client = await greeted();
    const drafted = await newSession(client);
    client.send({ type: "composer.draft", sessionId: drafted, text: "half a thought" });
    await client.next("event", (f) => f.sessionId === drafted && f.entry.kind === "composer.draft");
    const prompted = await newSession(client);
    expect(prompted).not.toBe(drafted);
    client.send({ type: "prompt", sessionId: prompted, text: "hi" });
    await client.next("event", (f) => f.sessionId === prompted && f.entry.kind === "turn.ended");
    const renamed = await newSession(client);
    expect(renamed).not.toBe(prompted);
    client.send({ type: "session.rename", sessionId: renamed, title: "Kept" });
    await client.next("session.upserted", (f) => f.session.title === "Kept");
    const fresh = await newSession(client);
    expect(new Set([drafted, prompted, renamed, fresh]).size).toBe(4);
    expect(await sessionCount()).toBe(4);
  });

  it("[W1][S3] never hands one person's empty session to another: each gets their own", async () => {
    const lines: string[] = [];
    runTokenCommand(
      ["issue", "Bob", "--workspace", server().workspace, "--db", server().dbPath],
      "/",
      (line) => lines.push(line),
    );
    const bobToken = lines.find((line) => /^[0-9a-f]{64}$/.test(line)) ?? "";
    const owner = await greeted();
    const opened = await TestClient.greeted(
      `${server().wsUrl}?token=${bobToken}`,
      server().browserHeaders,
    );
    const bob = fixture.track(opened.client);
    const ownersEmpty = await newSession(owner);
    const bobsEmpty = await newSession(bob);
    expect(bobsEmpty).not.toBe(ownersEmpty);
    expect(await newSession(bob)).toBe(bobsEmpty);
    expect(await newSession(owner)).toBe(ownersEmpty);
  });
});
