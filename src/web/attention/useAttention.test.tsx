// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { useClient } from "../client/ClientContext.tsx";
import { questionRequest, snapshotFrame, stored, welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { useAttention } from "./useAttention.ts";

function Probe() {
  useAttention(useClient());
  return null;
}

class RecordingNotification {
  static permission: NotificationPermission = "granted";
  static made: RecordingNotification[] = [];
  onclick: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    RecordingNotification.made.push(this);
  }
  close() {
    this.closed = true;
  }
}

function setHidden(hidden: boolean) {
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}

beforeEach(() => {
  RecordingNotification.made = [];
  RecordingNotification.permission = "granted";
  vi.stubGlobal("Notification", RecordingNotification);
  document.title = "plangate";
});
afterEach(() => {
  vi.unstubAllGlobals();
  setHidden(false);
});

describe("useAttention", () => {
  it("[W4] a question arriving in a hidden tab badges the title and notifies; a click opens its session", () => {
    const { client, sent } = renderShell(<Probe />, { frames: [welcomeFrame()] });
    act(() => setHidden(true));
    const request = questionRequest("int_1", "s1");
    act(() =>
      client.receive(
        snapshotFrame("s1", [stored(1, { kind: "interaction.requested", request })], {
          pendingInteractions: 1,
        }),
      ),
    );
    expect(document.title).toBe("(1) plangate");
    expect(RecordingNotification.made).toHaveLength(1);
    const made = RecordingNotification.made[0];
    expect(made?.title).toBe("The agent has a question for you");
    expect(made?.options.body).toBe("Which database for int_1?");

    act(() => made?.onclick?.());
    expect(sent).toContainEqual({ type: "session.open", sessionId: "s1", lastSeq: 1 });
    act(() => setHidden(false));
    expect(document.title).toBe("plangate");
  });

  it("[W4] without the user's permission only the badge shows", () => {
    RecordingNotification.permission = "default";
    const { client } = renderShell(<Probe />, { frames: [welcomeFrame()] });
    act(() => setHidden(true));
    const request = questionRequest("int_1", "s1");
    act(() =>
      client.receive(snapshotFrame("s1", [stored(1, { kind: "interaction.requested", request })])),
    );
    expect(document.title).toBe("(1) plangate");
    expect(RecordingNotification.made).toEqual([]);
  });

  it("[X5] notifies when the countdown becomes visible, before the deadline", () => {
    vi.useFakeTimers({ now: 50_000, toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const { client } = renderShell(<Probe />, { frames: [welcomeFrame({ serverNow: 50_000 })] });
      const request = questionRequest("int_1", "s1");
      const countdown = {
        phase: "counting" as const,
        startedAt: 50_000,
        visibleAt: 60_000,
        deadlineAt: 110_000,
      };
      act(() =>
        client.receive(
          snapshotFrame("s1", [
            stored(1, { kind: "interaction.requested", request }),
            stored(2, { kind: "interaction.countdown", interactionId: "int_1", countdown }),
          ]),
        ),
      );
      act(() => setHidden(true));
      expect(RecordingNotification.made).toEqual([]);
      act(() => vi.advanceTimersByTime(10_000 + 100));
      expect(RecordingNotification.made).toHaveLength(1);
      expect(RecordingNotification.made[0]?.options.body).toBe(
        "Which database for int_1?\nUnless you answer, it continues on its own in 0:50.",
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
