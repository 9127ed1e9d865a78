import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, type SessionEntry } from "../../../../protocol/index.ts";
import { FakeClock } from "../../../interactions/fakeClock.ts";
import type { InteractionRegistry } from "../../../interactions/port.ts";
import { createInteractionRegistry } from "../../../interactions/registry.ts";
import { projectRoot } from "../../../paths.ts";
import { PermissionService } from "../../../permissions/service.ts";
import { planFilePath } from "../../../plan/planFile.ts";
import { SessionManager } from "../../../sessions/sessionManager.ts";
import { openDatabase } from "../../../store/database.ts";
import { randomId } from "../../../store/ids.ts";
import { SessionLog } from "../../../store/sessionLog.ts";
import { tempDir } from "../../../testing/helpers.ts";
import { waitForEntry } from "../../../testing/waitFor.ts";
import { TodoService } from "../../../todos/todoService.ts";
import { TodoStore } from "../../../todos/todoStore.ts";
import { defaultTools } from "../../../tools/defaultTools.ts";
import { ToolRegistry } from "../../../tools/registry.ts";
import { createScriptedProvider } from "../load.ts";

describe("the bundled demo scenario", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  let db: Database;
  let log: SessionLog;
  let registry: InteractionRegistry;
  let manager: SessionManager;
  let openOn: (folder: string) => void;

  beforeEach(() => {
    dir = tempDir();
    workspace = join(realpathSync(dir.path), "ws");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "README.md"), "# Sample\n");
    db = openDatabase(join(dir.path, "plangate.db"));
    const clock = new FakeClock();
    log = new SessionLog(db, clock);
    registry = createInteractionRegistry({
      append: (sessionId, entry) => log.append(sessionId, entry),
      clock,
      settings: () => DEFAULT_SETTINGS,
      timings: { graceMs: 60_000, deadlineMs: 300_000 },
      newId: () => randomId("int_"),
    });
    const todos = new TodoService(new TodoStore(db, clock), log);
    const demo = createScriptedProvider("scripted:demo");
    openOn = (folder) => {
      const permissions = new PermissionService({ workspace: folder });
      manager = new SessionManager({
        log,
        interactions: registry,
        tools: new ToolRegistry(defaultTools()),
        providerFor: () => demo,
        permissions: permissions.check,
        workspace: folder,
        defaultModel: demo.ref,
        defaultMode: "build",
        contextFor: (sessionId) => ({ todos: todos.forSession(sessionId) }),
      });
      manager.start();
    };
    openOn(workspace);
  });
  afterEach(async () => {
    await manager.close();
    db.close();
    dir.remove();
  });

  const entries = (id: string): SessionEntry[] => log.entriesAfter(id, 0).map((s) => s.entry);

  it("[P2][I3][P8][T6] a task walks the whole plan lane: plan mode, a question, a plan review, then a todo list and an approved write, and the list ends done", async () => {
    const { id } = manager.create();
    manager.prompt(id, "add a notes file for newcomers");
    const question = await waitForEntry(log, id, "interaction.requested");
    expect(manager.mode(id).planEnabled).toBe(true);
    const ask = question.entry.request;
    if (ask.kind !== "question") throw new Error("expected the AskUserQuestion batch");
    expect(ask.toolName).toBe("AskUserQuestion");
    expect(ask.questions[0]?.options).toHaveLength(3);
    registry.answer(ask.interactionId, {
      [ask.questions[0]!.question]: { labels: ["Project map"] },
    });

    const review = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.toolName === "ExitPlanMode",
    );
    const plan =
      review.entry.request.kind === "question" ? review.entry.request.questions[0]!.detail! : "";
    expect(plan).toMatch(/^# Plan: /);
    for (const part of ["## Steps", "| File | Change | Why |", "```sh", "1. Gather"])
      expect(plan).toContain(part);
    registry.answer(review.entry.request.interactionId, {
      "Review this implementation plan": { labels: ["Approve"] },
    });

    const card = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.kind === "permission",
    );
    expect(card.entry.request).toMatchObject({ toolName: "Write", summary: "plangate-demo.md" });
    expect(manager.mode(id)).toEqual({ permissionMode: "build", planEnabled: false });
    registry.decide(card.entry.request.interactionId, "allow_once");
    await manager.idle(id);

    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(plan);
    expect(readFileSync(join(workspace, "plangate-demo.md"), "utf8")).toMatch(/^# Welcome/);
    const all = entries(id);
    expect(all.filter((e) => e.kind === "tool.result" && e.isError)).toEqual([]);
    const messages = all.filter((e) => e.kind === "assistant.message");
    expect(messages.at(-2)?.kind === "assistant.message" && messages.at(-2)?.text).toMatch(
      /Created plangate-demo\.md/,
    );
    expect(messages.at(-1)?.kind === "assistant.message" && messages.at(-1)?.text).toMatch(
      /^## Done/,
    );
    // The list ends done when the agent says it is done.
    const lists = all.filter((e) => e.kind === "todos.updated");
    const finalList = lists.at(-1);
    expect(finalList?.kind === "todos.updated" && finalList.todos.map((t) => t.status)).toEqual([
      "completed",
      "completed",
      "completed",
    ]);
    expect(all.at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
  });

  it("[V7] a question about the plan gets an answer in the transcript and the same plan back as the next revision, twice, and approving it still carries the lane on", async () => {
    const { id } = manager.create();
    manager.prompt(id, "add a notes file for newcomers");
    const question = await waitForEntry(log, id, "interaction.requested");
    const ask = question.entry.request;
    if (ask.kind !== "question") throw new Error("expected the AskUserQuestion batch");
    registry.answer(ask.interactionId, {
      [ask.questions[0]!.question]: { labels: ["Project map"] },
    });

    const reviews = () =>
      entries(id).flatMap((e) =>
        e.kind === "interaction.requested" && e.request.toolName === "ExitPlanMode"
          ? [e.request]
          : [],
      );
    const reviewNumber = async (n: number) => {
      await waitForEntry(
        log,
        id,
        "interaction.requested",
        (e) => e.request.kind === "question" && e.request.planRevision?.number === n,
      );
      return reviews().at(-1)!;
    };
    const first = await reviewNumber(1);
    const plan = first.kind === "question" ? first.questions[0]!.detail : undefined;
    const REVIEW = "Review this implementation plan";
    const asking = { labels: [], other: "Why a new file?", review: { ask: true as const } };
    expect(registry.answer(first.interactionId, { [REVIEW]: asking })).toEqual({ ok: true });

    const second = await reviewNumber(2);
    expect(second.kind === "question" && second.questions[0]!.detail).toBe(plan);
    expect(second.kind === "question" && second.planRevision?.previous).toEqual({
      plan,
      feedback: [],
    });
    expect(manager.mode(id).planEnabled).toBe(true);
    const result = entries(id).find((e) => e.kind === "tool.result" && e.name === "ExitPlanMode");
    expect(result?.kind === "tool.result" && result.output).toContain(
      "<user-question>\nWhy a new file?\n</user-question>",
    );
    const answers = entries(id).filter(
      (e) => e.kind === "assistant.message" && e.text.startsWith("Good question."),
    );
    expect(answers).toHaveLength(1);

    // A second question gets a second answer; the turn's own steps are not used up by them.
    registry.answer(second.interactionId, { [REVIEW]: { ...asking, other: "And the README?" } });
    const third = await reviewNumber(3);
    registry.answer(third.interactionId, { [REVIEW]: { labels: ["Approve"] } });
    const card = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.kind === "permission",
    );
    expect(card.entry.request).toMatchObject({ toolName: "Write", summary: "plangate-demo.md" });
    registry.decide(card.entry.request.interactionId, "allow_once");
    await manager.idle(id);
    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(plan);
    const all = entries(id);
    expect(
      all.filter((e) => e.kind === "assistant.message" && e.text.startsWith("Good question.")),
    ).toHaveLength(2);
    expect(all.filter((e) => e.kind === "tool.result" && e.isError)).toEqual([]);
    expect(all.at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
  });

  it("[V2][V3] Request changes with comments: the model reads them in plan order with quotes and lines, and revision 2 reworks the commented line only", async () => {
    const { id } = manager.create();
    manager.prompt(id, "add a notes file for newcomers");
    const question = await waitForEntry(log, id, "interaction.requested");
    if (question.entry.request.kind !== "question") throw new Error("expected a question");
    registry.answer(question.entry.request.interactionId, {
      [question.entry.request.questions[0]!.question]: { labels: ["Project map"] },
    });
    const review = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.toolName === "ExitPlanMode",
    );
    const request = review.entry.request;
    if (request.kind !== "question") throw new Error("expected the plan review");
    const plan = request.questions[0]!.detail!;
    const lines = plan.split("\n");
    const stepThree = lines.findIndex((line) => line.startsWith("3. Leave")) + 1;
    const goal = lines.findIndex((line) => line.startsWith("**Goal:**")) + 1;
    const comment = (n: number, quote: string, text: string, path: string[]) => ({
      id: `c${n}`,
      anchor: {
        headingPath: path,
        blockIndex: 0,
        blockText: quote,
        quote,
        lines: { start: n, end: n },
      },
      text,
    });
    // Given out of plan order on purpose.
    registry.answer(request.interactionId, {
      "Review this implementation plan": {
        labels: ["Refuse"],
        other: "Keep it short.",
        review: {
          comments: [
            comment(
              stepThree,
              "Leave every existing file as it is.",
              "Also leave .gitignore alone",
              ["Plan: a notes file for newcomers", "Steps"],
            ),
            comment(goal, "Goal:", "Is one file enough?", ["Plan: a notes file for newcomers"]),
          ],
        },
      },
    });

    const second = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) =>
        e.request.toolName === "ExitPlanMode" && e.request.interactionId !== request.interactionId,
    );
    const told = entries(id).find(
      (e) => e.kind === "user.message" && e.text.startsWith("I am not approving"),
    );
    const text = told?.kind === "user.message" ? told.text : "";
    expect(text.indexOf(`lines="${goal}"`)).toBeGreaterThan(0);
    expect(text.indexOf(`lines="${goal}"`)).toBeLessThan(text.indexOf(`lines="${stepThree}"`));
    expect(text).toContain("<quoted>\nLeave every existing file as it is.\n</quoted>");
    expect(text).toContain('section="Plan: a notes file for newcomers > Steps"');
    expect(text).toContain("<overall-feedback>\nKeep it short.\n</overall-feedback>");

    const next = second.entry.request;
    if (next.kind !== "question") throw new Error("expected revision 2");
    expect(next.planRevision?.number).toBe(2);
    expect(next.planRevision?.previous?.comments?.map((c) => c.text)).toEqual([
      "Also leave .gitignore alone",
      "Is one file enough?",
    ]);
    // The steered comment message is shown at the anchors, not repeated as feedback.
    expect(next.planRevision?.previous?.feedback).toEqual(["Keep it short."]);
    const revised = next.questions[0]!.detail!.split("\n");
    expect(revised[stepThree - 1]).toBe(
      "3. Leave every existing file as it is. (revised: Also leave .gitignore alone)",
    );
    expect(revised[goal - 1]).toBe(lines[goal - 1]);
  });

  it("keeps the hello turn and the look-around reply", async () => {
    const { id } = manager.create();
    manager.prompt(id, "hello");
    await manager.idle(id);
    manager.prompt(id, "What is in this project?");
    await manager.idle(id);
    const replies = entries(id).filter((e) => e.kind === "assistant.message");
    expect(replies[0]?.kind === "assistant.message" && replies[0].text).toMatch(/^Hello!/);
    expect(replies.at(-1)?.kind === "assistant.message" && replies.at(-1)!.text).toMatch(
      /^## What I found/,
    );
    expect(manager.mode(id).planEnabled).toBe(false);
  });
  const HAN = /\p{Script=Han}/u;
  const say = (e: SessionEntry) => (e.kind === "assistant.message" ? [e.text] : []);
  /** Runs a task up to its question, answers it, and resolves with the plan review request. */
  const toPlanReview = async (id: string, task: string) => {
    manager.prompt(id, task);
    const question = await waitForEntry(log, id, "interaction.requested");
    const ask = question.entry.request;
    if (ask.kind !== "question") throw new Error("expected the AskUserQuestion batch");
    registry.answer(ask.interactionId, {
      [ask.questions[0]!.question]: { labels: [ask.questions[0]!.options[1]!.label] },
    });
    const review = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.toolName === "ExitPlanMode",
    );
    if (review.entry.request.kind !== "question") throw new Error("expected the plan review");
    return { ask, review: review.entry.request };
  };

  it("[W2][P2][I3][T6] a task written in Chinese plays the whole lane in Simplified Chinese; the same task in English stays English", async () => {
    const { id } = manager.create();
    const { ask, review } = await toPlanReview(id, "加一个给新人的说明文件");
    expect(manager.mode(id).planEnabled).toBe(true);
    expect(ask.questions[0]).toMatchObject({
      question: "新的说明文件应该侧重什么？",
      header: "侧重点",
    });
    expect(ask.questions[0]!.options.map((o) => o.label)).toEqual([
      "上手入门（推荐）",
      "项目地图",
      "待解决的问题",
    ]);
    const plan = review.questions[0]!.detail!;
    expect(plan).toMatch(/^# 计划：给新人的说明文件\n/);
    for (const part of ["## 步骤", "| 文件 | 改动 | 原因 |", "```sh", "1. 收集"])
      expect(plan).toContain(part);
    registry.answer(review.interactionId, {
      "Review this implementation plan": { labels: ["Approve"] },
    });
    const card = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.kind === "permission",
    );
    registry.decide(card.entry.request.interactionId, "allow_once");
    await manager.idle(id);

    const all = entries(id);
    const replies = all.flatMap(say).filter((text) => !text.startsWith("写文件的结果是"));
    expect(replies.length).toBeGreaterThan(4);
    for (const text of replies) expect(text).toMatch(HAN);
    expect(replies.at(-1)).toMatch(/^## 完成/);
    const lists = all.flatMap((e) => (e.kind === "todos.updated" ? [e.todos] : []));
    expect(lists.at(-1)?.map((t) => [t.content, t.status])).toEqual([
      ["收集工作区对自己的介绍", "completed"],
      ["写 plangate-demo.md", "completed"],
      ["检查指南提到的每个文件都存在", "completed"],
    ]);
    expect(readFileSync(join(workspace, "plangate-demo.md"), "utf8")).toMatch(/^# 欢迎/);
    expect(all.filter((e) => e.kind === "tool.result" && e.isError)).toEqual([]);

    const english = manager.create();
    const lane = await toPlanReview(english.id, "add a notes file for newcomers");
    expect(lane.ask.questions[0]!.question).toBe("What should the new notes file focus on?");
    expect(lane.review.questions[0]!.detail).toMatch(/^# Plan: a notes file for newcomers\n/);
    expect(entries(english.id).flatMap(say).join("\n")).not.toMatch(HAN);
  });

  it("[W2][M1] the phrases the zh-CN page's hint suggests get the greeting and the look around in Chinese", async () => {
    const catalog = join(projectRoot, "locales", "zh-CN", "common.json");
    const hint: string = JSON.parse(readFileSync(catalog, "utf8"))["transcript.demoHint"];
    const [hello, look] = [...hint.matchAll(/“([^”]+)”/g)].map((m) => m[1]!);
    expect([hello, look]).toEqual(["你好", "这个项目里有什么？"]);
    const { id } = manager.create();
    manager.prompt(id, hello!);
    await manager.idle(id);
    manager.prompt(id, look!);
    await manager.idle(id);
    const replies = entries(id).flatMap(say);
    expect(replies[0]).toMatch(/^你好！我是 plangate 的\*\*脚本演示模型\*\*/);
    expect(replies[0]).toContain("这个项目里有什么？");
    expect(replies.at(-1)).toMatch(/^## 我看到了什么\n\n你问的是：\*这个项目里有什么？\*/);
    expect(
      entries(id)
        .filter((e) => e.kind === "tool.call")
        .map((e) => e.kind === "tool.call" && e.name),
    ).toEqual(["Glob", "Read", "Grep"]);
    expect(manager.mode(id).planEnabled).toBe(false);
  });

  it("[W2][V3] comments on the Chinese plan get the revision in Chinese: the line asked to change is reworked, the line only asked about stays", async () => {
    const { id } = manager.create();
    const { review } = await toPlanReview(id, "加一个给新人的说明文件");
    const lines = review.questions[0]!.detail!.split("\n");
    const stepThree = lines.findIndex((line) => line.startsWith("3. ")) + 1;
    const goal = lines.findIndex((line) => line.startsWith("**目标：**")) + 1;
    registry.answer(review.interactionId, {
      "Review this implementation plan": {
        labels: ["Refuse"],
        review: {
          comments: [
            {
              id: "c1",
              anchor: {
                headingPath: ["计划：给新人的说明文件", "步骤"],
                blockIndex: 0,
                blockText: lines[stepThree - 1]!.slice(3),
                quote: lines[stepThree - 1]!.slice(3),
                lines: { start: stepThree, end: stepThree },
              },
              text: "也别动 .gitignore",
            },
            {
              id: "c2",
              anchor: {
                headingPath: ["计划：给新人的说明文件"],
                blockIndex: 0,
                blockText: "目标",
                quote: "目标",
                lines: { start: goal, end: goal },
              },
              text: "一个文件够吗？",
            },
          ],
        },
      },
    });
    const second = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.kind === "question" && e.request.planRevision?.number === 2,
    );
    const next = second.entry.request;
    if (next.kind !== "question") throw new Error("expected revision 2");
    const revised = next.questions[0]!.detail!.split("\n");
    expect(revised[stepThree - 1]).toBe(
      "3. 现有文件一律保持原样。（已按批注修改：也别动 .gitignore）",
    );
    expect(revised.filter((line, i) => line !== lines[i])).toHaveLength(1);
    expect(entries(id).flatMap(say).at(-1)).toMatch(/^谢谢你的批注。/);
  });

  /** M1: the workspaces a newcomer may start the demo in, and what the look around can read there. */
  const workspaces: {
    kind: string;
    files: Record<string, string> | "this repository";
    reads: string[];
    en: string;
    zh: string;
  }[] = [
    {
      kind: "an empty folder",
      files: {},
      reads: [],
      en: "2. found no `README.md` or `package.json` to read;",
      zh: "2. 没有找到可读的 `README.md` 或 `package.json`；",
    },
    {
      kind: "a folder with only a README",
      files: { "README.md": "# Sample\n" },
      reads: ["README.md"],
      en: "2. read `README.md` with **Read**;",
      zh: "2. 用 **Read** 读了 `README.md`；",
    },
    {
      kind: "a Python project",
      files: {
        "pyproject.toml": '[project]\nname = "sample"\n',
        "README.rst": "Sample\n======\n",
        "app.py": "# TODO: cache the lookups\nprint('hi')\n",
      },
      reads: [],
      en: "2. found no `README.md` or `package.json` to read;",
      zh: "2. 没有找到可读的 `README.md` 或 `package.json`；",
    },
    {
      kind: "this repository",
      files: "this repository",
      reads: ["README.md", "package.json"],
      en: "2. read `README.md` and `package.json` with **Read**;",
      zh: "2. 用 **Read** 读了 `README.md` 和 `package.json`；",
    },
  ];
  /** Opens the demo on a workspace holding just these files, or on plangate's own folder. */
  const workspaceOf = async (files: Record<string, string> | "this repository") => {
    if (files === "this repository") {
      await manager.close();
      openOn(projectRoot);
      return;
    }
    rmSync(join(workspace, "README.md"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(workspace, name), text);
  };
  const reads = (id: string) =>
    entries(id).flatMap((e) =>
      e.kind === "tool.call" && e.name === "Read" ? [(e.input as { path: string }).path] : [],
    );

  for (const { kind, files, reads: readable, en, zh } of workspaces) {
    for (const [language, ask, line] of [
      ["English", "What is in this project?", en],
      ["Chinese", "这个项目里有什么？", zh],
    ] as const) {
      it(`[M1][W2] the look around in ${language} in ${kind} reads only files that exist, no step fails, and it says what it read`, async () => {
        await workspaceOf(files);
        const { id } = manager.create();
        manager.prompt(id, ask);
        await manager.idle(id);
        const all = entries(id);
        expect(all.filter((e) => e.kind === "tool.result" && e.isError)).toEqual([]);
        expect(reads(id)).toEqual(readable);
        const said = all.flatMap(say);
        expect(said.at(-1)?.split("\n")).toContain(line);
        if (language === "Chinese") for (const text of said) expect(text).toMatch(HAN);
        else expect(said.join("\n")).not.toMatch(HAN);
        if (kind === "a Python project") expect(said.at(-1)).toContain("app.py:1: # TODO");
        expect(all.at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
      });
    }
  }

  it("[M1][P2] a task in a folder with no README plays the whole lane with no failed step, and neither the plan nor the guide claims a README", async () => {
    await workspaceOf({ "main.py": "print('hi')\n" });
    // Saying there is none is true; any other mention would claim one.
    const claimsReadme = (text: string) =>
      text.replace(/no `README\.md`|没有 `README\.md`/g, "").includes("README");
    for (const task of ["add a notes file for newcomers", "加一个给新人的说明文件"]) {
      const { id } = manager.create();
      const { review } = await toPlanReview(id, task);
      const plan = review.questions[0]!.detail!;
      expect(plan).toMatch(/no `README\.md`|没有 `README\.md`/);
      expect(claimsReadme(plan)).toBe(false);
      registry.answer(review.interactionId, {
        "Review this implementation plan": { labels: ["Approve"] },
      });
      const card = await waitForEntry(
        log,
        id,
        "interaction.requested",
        (e) => e.request.kind === "permission",
      );
      registry.decide(card.entry.request.interactionId, "allow_once");
      await manager.idle(id);
      const all = entries(id);
      expect(all.filter((e) => e.kind === "tool.result" && e.isError)).toEqual([]);
      expect(reads(id)).toEqual([]);
      expect(claimsReadme(readFileSync(join(workspace, "plangate-demo.md"), "utf8"))).toBe(false);
      expect(all.at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
    }
  });
});
