import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from "../../protocol/index.ts";
import { guardStorage } from "./errors.ts";
import { asSqlDb, type SqlDb } from "./sqlDb.ts";

/** User settings as key/value JSON rows; unknown or broken rows fall back to the defaults. */
export class SettingsStore {
  private readonly db: SqlDb;
  /**
   * On SQLite this store is the settings' only writer (one server per file, R11), so what it
   * read stays true until its own update: every tool call reads them. Servers sharing a
   * PostgreSQL database (S2) write them too, so there each read goes to the database.
   */
  private cached: Settings | undefined;

  constructor(db: Database | SqlDb) {
    this.db = asSqlDb(db);
  }

  get(): Settings {
    if (this.db.dialect !== "sqlite") return this.read();
    this.cached ??= Object.freeze(this.read());
    return this.cached;
  }

  private read(): Settings {
    const rows = guardStorage("read settings", () =>
      this.db.all<{ key: string; value: string }>("SELECT key, value FROM settings"),
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
      this.db.transaction(() => {
        for (const [key, value] of Object.entries(definedOnly(patch))) {
          this.db.run(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, JSON.stringify(value)],
          );
        }
      });
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
