import type { ExecutionMode, SessionEntry } from "../../protocol/index.ts";
import {
  planModeExitedReminder,
  planModeReminderFull,
  planModeReminderShort,
} from "./planTexts.ts";
import { nextModeReminder, PLAN_MODE_EXIT_REMINDER, PLAN_MODE_REMINDER } from "./reminders.ts";

const build: ExecutionMode = { permissionMode: "build", planEnabled: false };
const plan: ExecutionMode = { permissionMode: "build", planEnabled: true };

/**
 * A session as the runtime drives it: before every model request the due reminder (if any) is
 * stored, as the session manager does.
 */
class Session {
  readonly entries: { entry: SessionEntry }[] = [];
  mode: ExecutionMode;
  constructor(mode: ExecutionMode) {
    this.mode = mode;
    this.push({ kind: "session.created", title: "", model: "m", mode });
  }
  push(entry: SessionEntry) {
    this.entries.push({ entry });
  }
  setMode(mode: ExecutionMode) {
    this.mode = mode;
    this.push({ kind: "session.modeChanged", mode });
  }
  /** A model request; returns the reminder stored for it. */
  request(): "full" | "short" | "exit" | undefined {
    const reminder = nextModeReminder(this.entries, this.mode);
    if (!reminder) return undefined;
    this.push(reminder);
    if (reminder.reminder === PLAN_MODE_EXIT_REMINDER) return "exit";
    expect(reminder.reminder).toBe(PLAN_MODE_REMINDER);
    return reminder.text === planModeReminderFull() ? "full" : "short";
  }
  /** A real user message followed by a model request. */
  say(text = "next"): ReturnType<Session["request"]> {
    this.push({ kind: "user.message", text });
    return this.request();
  }
}

describe("plan-mode reminders (P6)", () => {
  it("[P6] the first request in plan gets the full reminder, then one every 5 real user messages; the 1st, 6th, 11th are full", () => {
    const session = new Session(plan);
    const byMessage = Array.from({ length: 56 }, () => session.say());
    const given = byMessage.flatMap((kind, index) => (kind ? [[index + 1, kind] as const] : []));
    expect(given).toEqual([
      [1, "full"],
      [6, "short"],
      [11, "short"],
      [16, "short"],
      [21, "short"],
      [26, "full"],
      [31, "short"],
      [36, "short"],
      [41, "short"],
      [46, "short"],
      [51, "full"],
      [56, "short"],
    ]);
    expect(byMessage.slice(1, 5)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("[P6] is not repeated on the further requests of one turn (tool loop)", () => {
    const session = new Session(plan);
    expect(session.say("plan this")).toBe("full");
    session.push({ kind: "tool.call", callId: "c1", name: "Read", input: {} });
    session.push({ kind: "tool.result", callId: "c1", name: "Read", isError: false, output: "x" });
    expect(session.request()).toBeUndefined();
    expect(session.request()).toBeUndefined();
  });

  it("[P6] counts only real user messages, not runtime notices", () => {
    const session = new Session(plan);
    session.say();
    for (let i = 0; i < 6; i++)
      session.push({ kind: "user.message", text: "late answer", synthetic: true });
    expect(session.request()).toBeUndefined();
  });

  it("[P6] a plan period that starts mid-session starts with the full reminder; entering mid-turn too", () => {
    const session = new Session(build);
    expect(session.say("hello")).toBeUndefined();
    session.setMode(plan);
    expect(session.request()).toBe("full");
    expect(session.say()).toBeUndefined();
  });

  it("[P6] the first request after leaving plan gets the one-time exit reminder", () => {
    const session = new Session(plan);
    expect(session.say("plan it")).toBe("full");
    session.setMode(build);
    expect(session.request()).toBe("exit");
    expect(session.request()).toBeUndefined();
    expect(session.say()).toBeUndefined();
    const exit = session.entries.find(
      ({ entry }) => entry.kind === "user.message" && entry.reminder === PLAN_MODE_EXIT_REMINDER,
    );
    expect(exit?.entry).toEqual({
      kind: "user.message",
      text: planModeExitedReminder(),
      synthetic: true,
      reminder: PLAN_MODE_EXIT_REMINDER,
    });
  });

  it("[P6] a new plan period starts the count again with a full reminder", () => {
    const session = new Session(plan);
    session.say();
    session.say();
    session.setMode(build);
    session.request();
    session.setMode(plan);
    expect(session.request()).toBe("full");
  });

  it("[P6] no exit reminder when the model never heard of the plan period", () => {
    const session = new Session(plan);
    session.setMode(build);
    expect(session.say()).toBeUndefined();
  });

  it("[P6] the reminders say what plan mode asks for", () => {
    const full = planModeReminderFull();
    expect(full).toMatch(/^<system-reminder>/);
    expect(full).toMatch(/read-only/);
    for (const phase of ["Understand", "Design", "Review", "Submit"]) expect(full).toContain(phase);
    expect(full).toMatch(/AskUserQuestion or with ExitPlanMode/);
    expect(planModeReminderShort().length).toBeLessThan(full.length / 4);
    expect(planModeExitedReminder()).toMatch(/may now edit files/);
  });
});
