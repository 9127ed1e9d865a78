// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { memo, Suspense } from "react";
import { describe, expect, it } from "vitest";
import type { Language } from "./language.ts";
import type { Copy, Namespace } from "./resources.ts";
import { Translator } from "./translator.ts";
import { TranslationProvider, useTranslation } from "./useTranslation.tsx";

const copies: Record<string, Copy> = {
  "en/common": { "page.settings": "Settings" },
  "zh-CN/common": { "page.settings": "设置" },
  "en/settings": { "language.label": "Language" },
  "zh-CN/settings": { "language.label": "语言" },
};

function deferredLoads() {
  const waiting: Array<() => void> = [];
  const load = (language: Language, namespace: Namespace) =>
    new Promise<Copy>((resolve) => {
      waiting.push(() => resolve(copies[`${language}/${namespace}`] ?? {}));
    });
  const releaseAll = async () => {
    await act(async () => {
      for (const release of waiting.splice(0)) release();
    });
  };
  return { load, releaseAll };
}

const Title = memo(function Title() {
  const { t } = useTranslation();
  return <h1>{t("page.settings")}</h1>;
});

function SettingsLabel() {
  const { t } = useTranslation("settings", { useSuspense: true });
  return <p>{t("language.label")}</p>;
}

describe("useTranslation (W2)", () => {
  it("[W2] a part whose namespace is not read yet suspends until it is, then shows its copy", async () => {
    const { load, releaseAll } = deferredLoads();
    const translator = new Translator("en", { common: copies["en/common"] }, load);
    await act(async () => {
      render(
        <TranslationProvider translator={translator}>
          <Suspense fallback={<p>loading</p>}>
            <SettingsLabel />
          </Suspense>
        </TranslationProvider>,
      );
    });
    expect(screen.getByText("loading")).toBeInTheDocument();
    await releaseAll();
    expect(await screen.findByText("Language")).toBeInTheDocument();
  });

  it("[W2] a switch of language re-renders memoised parts in the new language once its copy is in", async () => {
    const { load, releaseAll } = deferredLoads();
    const translator = new Translator("en", { common: copies["en/common"] }, load);
    render(
      <TranslationProvider translator={translator}>
        <Title />
      </TranslationProvider>,
    );
    expect(screen.getByRole("heading")).toHaveTextContent("Settings");
    let switched: Promise<void> = Promise.resolve();
    act(() => {
      switched = translator.changeLanguage("zh-CN");
    });
    expect(screen.getByRole("heading")).toHaveTextContent("Settings");
    await releaseAll();
    await act(() => switched);
    expect(screen.getByRole("heading")).toHaveTextContent("设置");
  });
});
