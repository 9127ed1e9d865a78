import type { CountdownState } from "../../protocol/index.ts";
import { questionRequest, stored, summary } from "../store/fixtures.ts";
import { applyEntries, emptySessionView } from "../store/sessionView.ts";
import type { WebData } from "../store/types.ts";
import { AttentionController, type AttentionEnv } from "./attentionController.ts";
import type { Notice } from "./attentionState.ts";

type State = Pick<WebData, "views" | "sessions" | "clockOffsetMs">;

/** A browser whose clock runs minutes behind the server's, as the offset from welcome says. */
const OFFSET_MS = 5 * 60_000;

function fakeBrowser(start: number) {
  let now = start;
  let hidden = false;
  const titles: string[] = [];
  const notices: Notice[] = [];
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  const env: AttentionEnv = {
    isHidden: () => hidden,
    browserNow: () => now,
    setTitle: (title) => titles.push(title),
    notify: (notice) => notices.push(notice),
    setTimer: (run, ms) => {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
  return {
    env,
    titles,
    notices,
    hide: (value: boolean) => {
      hidden = value;
    },
    /** Moves the browser clock, firing timers that come due. */
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers
          .filter((t) => !t.cancelled && t.at <= until)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.cancelled = true;
        now = due.at;
        due.run();
      }
      now = until;
    },
    pendingTimers: () => timers.filter((t) => !t.cancelled).length,
  };
}

function stateWith(countdown: CountdownState): State {
  const request = questionRequest("int_1");
  const view = applyEntries(emptySessionView("s1"), [
    stored(1, { kind: "interaction.requested", request }),
    stored(2, { kind: "interaction.countdown", interactionId: "int_1", countdown }),
  ]);
  return {
    views: { s1: view },
    sessions: { s1: summary("s1", { pendingInteractions: 1 }) },
    clockOffsetMs: OFFSET_MS,
  };
}

describe("AttentionController", () => {
  const serverStart = 1_000_000;
  const counting: CountdownState = {
    phase: "counting",
    startedAt: serverStart,
    visibleAt: serverStart + 60_000,
    deadlineAt: serverStart + 300_000,
  };

  it("[W4] badges the title while hidden and restores it when visible", () => {
    const browser = fakeBrowser(serverStart - OFFSET_MS);
    const controller = new AttentionController(() => stateWith(counting), browser.env, "plangate");
    browser.hide(true);
    controller.check();
    browser.hide(false);
    controller.check();
    expect(browser.titles).toEqual(["(1) plangate", "plangate"]);
  });

  it("[X5] notifies at the countdown's visible moment in server time, though the browser clock is minutes off", () => {
    const browser = fakeBrowser(serverStart - OFFSET_MS);
    const controller = new AttentionController(() => stateWith(counting), browser.env, "plangate");
    controller.check();
    browser.hide(true);
    controller.check();
    expect(browser.notices).toEqual([]);

    browser.advance(60_000 - 1);
    expect(browser.notices).toEqual([]);
    browser.advance(1_000);
    expect(browser.notices).toEqual([
      expect.objectContaining({ key: "int_1", deadlineAt: counting.deadlineAt }),
    ]);
    expect(browser.pendingTimers()).toBe(0);
  });

  it("[W4] a question arriving while hidden is announced at once", () => {
    const browser = fakeBrowser(serverStart - OFFSET_MS);
    let state: State = { views: { s1: emptySessionView("s1") }, sessions: {}, clockOffsetMs: 0 };
    const controller = new AttentionController(() => state, browser.env, "plangate");
    browser.hide(true);
    controller.check();
    expect(browser.titles).toEqual([]);
    state = stateWith({ phase: "ineligible" });
    controller.check();
    expect(browser.titles).toEqual(["(1) plangate"]);
    expect(browser.notices).toEqual([
      expect.objectContaining({ key: "int_1", text: "Which database for int_1?" }),
    ]);
  });

  it("[W4] counts waiting questions of sessions this tab does not follow", () => {
    const browser = fakeBrowser(0);
    const state: State = {
      views: {},
      sessions: { s2: summary("s2", { pendingInteractions: 2 }) },
      clockOffsetMs: 0,
    };
    const controller = new AttentionController(() => state, browser.env, "plangate");
    browser.hide(true);
    controller.check();
    expect(browser.titles).toEqual(["(2) plangate"]);
    expect(browser.notices.map((notice) => notice.kind)).toEqual(["unknown", "unknown"]);
  });

  it("[W4] stop puts the plain title back", () => {
    const browser = fakeBrowser(0);
    const controller = new AttentionController(() => stateWith(counting), browser.env, "plangate");
    browser.hide(true);
    controller.check();
    controller.stop();
    expect(browser.titles.at(-1)).toBe("plangate");
  });
});
