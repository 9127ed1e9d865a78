import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from "react";
import type { Namespace } from "./resources.ts";
import type { TFunction, Translator } from "./translator.ts";

const TranslatorContext = createContext<Translator | null>(null);

export function TranslationProvider(props: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext value={props.translator}>{props.children}</TranslatorContext>;
}

/**
 * The copy of the given namespaces (the first is where bare keys are looked up first; default
 * "common"), re-rendering on a language switch or newly loaded copy. A namespace not yet loaded
 * is read; meanwhile keys show as themselves, or with `useSuspense` the part suspends.
 */
export function useTranslation<N extends Namespace = "common">(
  namespaces?: N | readonly [N, ...Namespace[]],
  options?: { useSuspense?: boolean },
): { t: TFunction<N>; i18n: Translator; ready: boolean } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error("useTranslation needs a TranslationProvider above it");
  const list: readonly [N, ...Namespace[]] =
    namespaces === undefined
      ? (["common"] as unknown as [N])
      : typeof namespaces === "string"
        ? [namespaces]
        : namespaces;
  const listKey = list.join();
  const revision = useSyncExternalStore(translator.subscribe, translator.getRevision);
  const ready = list.every((namespace) => translator.hasLoadedNamespace(namespace));
  // A thrown promise, not React 19's use(): Preact's Suspense (the page's runtime) knows only that.
  if (!ready && options?.useSuspense) throw translator.loadNamespaces(list);
  useEffect(() => {
    if (!ready) void translator.loadNamespaces(listKey.split(",") as Namespace[]);
  }, [ready, translator, listKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new function after each change re-renders memoised parts
  const t = useMemo(
    () => translator.fixedT(listKey.split(",") as unknown as [N, ...Namespace[]]),
    [translator, listKey, revision],
  );
  return { t, i18n: translator, ready };
}
