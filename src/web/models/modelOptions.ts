import type { ModelInfo } from "../../protocol/index.ts";

export interface ModelGroup {
  provider: string;
  models: ModelInfo[];
}

/**
 * The picker's choices grouped by provider, in the server's order. The session's current
 * model is always offered, even when the host no longer lists it, so the picker never
 * shows a model the session is not on.
 */
export function modelGroups(models: readonly ModelInfo[], current: string | null): ModelGroup[] {
  const all = [...models];
  if (current !== null && !all.some((model) => model.ref === current)) {
    const slash = current.indexOf("/");
    all.push({
      ref: current,
      provider: slash > 0 ? current.slice(0, slash) : current,
      label: current,
    });
  }
  const groups: ModelGroup[] = [];
  for (const model of all) {
    const group = groups.find((g) => g.provider === model.provider);
    if (group) group.models.push(model);
    else groups.push({ provider: model.provider, models: [model] });
  }
  return groups;
}
