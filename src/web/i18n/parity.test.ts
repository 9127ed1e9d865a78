import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { flatten, type Messages, parityProblems } from "./parity.ts";

const localesDir = resolve(import.meta.dirname, "../../../locales");
const languages = readdirSync(localesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const namespaces = [
  ...new Set(
    languages.flatMap((lng) =>
      readdirSync(join(localesDir, lng))
        .filter((name) => name.endsWith(".json"))
        .map((name) => name.replace(/\.json$/, "")),
    ),
  ),
].sort();

function load(lng: string, namespace: string): Messages | undefined {
  try {
    return flatten(JSON.parse(readFileSync(join(localesDir, lng, `${namespace}.json`), "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

describe("locale parity", () => {
  it("[W2] ships exactly en and zh-CN, with the four namespaces", () => {
    expect(languages).toEqual(["en", "zh-CN"]);
    expect(namespaces).toEqual(expect.arrayContaining(["common", "plan", "question", "settings"]));
  });

  it.each(namespaces)(
    "[W2] namespace %s has the same keys, placeholders and plurals in every language",
    (namespace) => {
      const byLanguage: Record<string, Messages> = {};
      const missingFiles: string[] = [];
      for (const lng of languages) {
        const messages = load(lng, namespace);
        if (messages) byLanguage[lng] = messages;
        else missingFiles.push(`${lng}/${namespace}.json`);
      }
      expect(missingFiles).toEqual([]);
      expect(parityProblems(namespace, byLanguage)).toEqual([]);
    },
  );
});

describe("parityProblems", () => {
  it("[W2] reports a key missing in one language", () => {
    expect(parityProblems("ns", { en: { a: "A", b: "B" }, "zh-CN": { a: "甲" } })).toEqual([
      "ns:b is missing in zh-CN",
    ]);
  });

  it("[W2] reports placeholders that differ", () => {
    const problems = parityProblems("ns", {
      en: { greet: "Hi {{name}}" },
      "zh-CN": { greet: "你好 {{user}}" },
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("placeholders differ");
  });

  it("[W2] reports a plural form the language needs but lacks", () => {
    expect(
      parityProblems("ns", {
        en: { n_other: "{{count}} items" },
        "zh-CN": { n_other: "{{count}} 项" },
      }),
    ).toEqual(["ns:n_one is missing in en"]);
  });

  it("[W2] accepts matching files", () => {
    expect(
      parityProblems("ns", {
        en: { n_one: "{{count}} item", n_other: "{{count}} items", t: "T" },
        "zh-CN": { n_other: "{{count}} 项", t: "T" },
      }),
    ).toEqual([]);
  });
});
