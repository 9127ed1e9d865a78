import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from "../../protocol/index.ts";
import { guardStorage } from "./errors.ts";

/** User settings as key/value JSON rows; unknown or broken rows fall back to the defaults. */
export class SettingsStore {
  /**
   * This store is the settings' only writer (one server per database, R11), so what it read
   * stays true until its own update: every tool call reads them, and a read parsed each row.
   */
  private cached: Settings | undefined;

  constructor(private readonly db: Database) {}

  get(): Settings {
    this.cached ??= Object.freeze(this.read());
    return this.cached;
  }

  private read(): Settings {
    const rows = guardStorage("read settings", () =>
      this.db.prepare<[], { key: string; value: string }>("SELECT key, value FROM settings").all(),
    );
    const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const row of rows) {
      if (!(row.key in DEFAULT_SETTINGS)) continue;
      try {
        merged[row.key] = JSON.parse(row.value);
      } catch {
        // keep the default for a value that no longer parses
      }
    }
    const parsed = Settings.safeParse(merged);
    return parsed.success ? parsed.data : { ...DEFAULT_SETTINGS };
  }

  /** Writes every key of the patch in one transaction and returns the settings after it. */
  update(patch: SettingsPatch): Settings {
    const next = { ...this.get(), ...definedOnly(patch) };
    Settings.parse(next);
    guardStorage("save settings", () => {
      const upsert = this.db.prepare(
        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      );
      this.db.transaction(() => {
        for (const [key, value] of Object.entries(definedOnly(patch))) {
          upsert.run(key, JSON.stringify(value));
        }
      })();
    });
    this.cached = undefined;
    return next;
  }
}

function definedOnly(patch: SettingsPatch): Partial<Settings> {
  return Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  ) as Partial<Settings>;
}
