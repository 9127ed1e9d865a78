import { describe, expect, it } from "vitest";
import type { Language } from "./language.ts";
import type { Copy, Namespace } from "./resources.ts";
import { Translator } from "./translator.ts";

const copies: Record<string, Copy> = {
  "en/common": {
    "queue.waiting_one": "{{count}} more waiting",
    "queue.waiting_other": "{{count}} more waiting (many)",
    greet: "Hi {{name}}",
  },
  "zh-CN/common": { "queue.waiting_other": "还有 {{count}} 个", greet: "你好 {{name}}" },
  "en/plan": { "planReview.approve": "Approve" },
  "zh-CN/plan": { "planReview.approve": "批准" },
  "en/settings": { title: "Settings" },
  "zh-CN/settings": { title: "设置" },
};

/** A translator whose loads are recorded and can be made to fail. */
function translator(language: Language, given: Namespace[], failing = new Set<string>()) {
  const loads: string[] = [];
  const messages = Object.fromEntries(given.map((ns) => [ns, copies[`${language}/${ns}`]]));
  const instance = new Translator(language, messages, (lng, ns) => {
    loads.push(`${lng}/${ns}`);
    const copy = copies[`${lng}/${ns}`];
    return failing.has(`${lng}/${ns}`) || !copy
      ? Promise.reject(new Error("chunk fetch failed"))
      : Promise.resolve(copy);
  });
  return { instance, loads };
}

describe("the page's translator (W2)", () => {
  it("[W2] picks each language's plural form by Intl.PluralRules and fills placeholders", () => {
    const en = translator("en", ["common"]).instance;
    expect(en.t(["common"], "queue.waiting", { count: 1 })).toBe("1 more waiting");
    expect(en.t(["common"], "queue.waiting", { count: 3 })).toBe("3 more waiting (many)");
    expect(en.t(["common"], "greet", { name: "Ada" })).toBe("Hi Ada");
    const zh = translator("zh-CN", ["common"]).instance;
    expect(zh.t(["common"], "queue.waiting", { count: 1 })).toBe("还有 1 个");
  });

  it("[W2] reads an ns: prefix, then the asked namespaces in turn, then the plan namespace; a missing key shows as itself", () => {
    const { instance } = translator("en", ["common", "plan", "settings"]);
    expect(instance.t(["settings", "common"], "greet", { name: "Ada" })).toBe("Hi Ada");
    expect(instance.t(["common"], "settings:title")).toBe("Settings");
    expect(instance.t(["common"], "planReview.approve")).toBe("Approve");
    expect(instance.t(["common"], "no.such.key")).toBe("no.such.key");
    expect(instance.t(["common"], "greet", { other: 1 })).toBe("Hi {{name}}");
    // An agent's text put into a placeholder is not read for placeholders itself.
    expect(instance.t(["common"], "greet", { name: "{{name}} and {{count}}" })).toBe(
      "Hi {{name}} and {{count}}",
    );
    // A key built from a server's value never reaches an Object property.
    expect(instance.t(["common"], "constructor")).toBe("constructor");
    expect(instance.t(["common"], "__proto__")).toBe("__proto__");
  });

  it("[W2] a namespace is read on first use, once; a failed read counts as loaded (its keys show) and is tried again when asked", async () => {
    const failing = new Set(["en/settings"]);
    const { instance, loads } = translator("en", ["common"], failing);
    let heard = 0;
    instance.subscribe(() => heard++);
    expect(instance.hasLoadedNamespace("settings")).toBe(false);
    await Promise.all([instance.loadNamespaces("settings"), instance.loadNamespaces(["settings"])]);
    expect(loads).toEqual(["en/settings"]);
    expect(instance.hasLoadedNamespace("settings")).toBe(true);
    expect(instance.hasResourceBundle("en", "settings")).toBe(false);
    expect(instance.t(["settings"], "title")).toBe("title");
    failing.clear();
    await instance.loadNamespaces("settings");
    expect(loads).toEqual(["en/settings", "en/settings"]);
    expect(instance.t(["settings"], "title")).toBe("Settings");
    expect(heard).toBe(2);
  });

  it("[W2] a switch reads the new language's copy of every namespace the page has before showing it, and tells <html lang>", async () => {
    const languages: string[] = [];
    const instance = new Translator(
      "en",
      { common: copies["en/common"], plan: copies["en/plan"] },
      (lng, ns) => Promise.resolve(copies[`${lng}/${ns}`] ?? {}),
      (lng) => languages.push(lng),
    );
    const before = instance.getRevision();
    const switching = instance.changeLanguage("zh-CN");
    expect(instance.t(["common"], "greet", { name: "A" })).toBe("Hi A");
    await switching;
    expect(instance.language).toBe("zh-CN");
    expect(instance.getRevision()).toBeGreaterThan(before);
    expect(instance.t(["common"], "planReview.approve")).toBe("批准");
    expect(instance.hasResourceBundle("zh-CN", "settings")).toBe(false);
    expect(languages).toEqual(["en", "zh-CN"]);
  });
});
