import type { SessionEntry } from "../../protocol/index.ts";
import { modeFromEntries, readExecutionMode, upgradeStoredEntry } from "./executionMode.ts";

describe("reading stored execution modes", () => {
  it("[P1] reads a legacy plan mode as plan on top of build", () => {
    expect(readExecutionMode("plan")).toEqual({ permissionMode: "build", planEnabled: true });
    expect(readExecutionMode({ permissionMode: "plan", planEnabled: false })).toEqual({
      permissionMode: "build",
      planEnabled: true,
    });
  });

  it("[P1] keeps today's shape and reads a bare permission mode name", () => {
    expect(readExecutionMode({ permissionMode: "yolo", planEnabled: true })).toEqual({
      permissionMode: "yolo",
      planEnabled: true,
    });
    expect(readExecutionMode("edit")).toEqual({ permissionMode: "edit", planEnabled: false });
  });

  it("falls back to build for anything unreadable", () => {
    for (const junk of [undefined, null, 3, "sudo", { permissionMode: 1 }]) {
      expect(readExecutionMode(junk)).toEqual({ permissionMode: "build", planEnabled: false });
    }
  });

  it("[P1] upgrades legacy session.created and session.modeChanged entries", () => {
    const legacyCreated = {
      kind: "session.created",
      title: "",
      model: "m",
      mode: "plan",
    } as unknown as SessionEntry;
    const legacyChanged = {
      kind: "session.modeChanged",
      mode: { permissionMode: "plan" },
    } as unknown as SessionEntry;
    expect(upgradeStoredEntry(legacyCreated)).toEqual({
      kind: "session.created",
      title: "",
      model: "m",
      mode: { permissionMode: "build", planEnabled: true },
    });
    expect(upgradeStoredEntry(legacyChanged)).toEqual({
      kind: "session.modeChanged",
      mode: { permissionMode: "build", planEnabled: true },
    });
    const message: SessionEntry = { kind: "user.message", text: "plan" };
    expect(upgradeStoredEntry(message)).toBe(message);
  });

  it("takes the mode of the last mode entry in a log", () => {
    const entries: { entry: SessionEntry }[] = [
      {
        entry: {
          kind: "session.created",
          title: "",
          model: "m",
          mode: { permissionMode: "edit", planEnabled: false },
        },
      },
      {
        entry: { kind: "session.modeChanged", mode: { permissionMode: "edit", planEnabled: true } },
      },
      { entry: { kind: "user.message", text: "hi" } },
    ];
    expect(modeFromEntries(entries)).toEqual({ permissionMode: "edit", planEnabled: true });
    expect(modeFromEntries([])).toBeUndefined();
  });
});
