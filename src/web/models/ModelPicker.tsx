import { useEffect, useId, useState } from "react";
import { isDrivenOverMcp, mcpClientOf } from "../../protocol/index.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import { modelGroups } from "./modelOptions.ts";
import { useSessionModel } from "./useSessionModel.ts";
import "./models.css";

/**
 * M1: the session's model is the user's choice, made here. A pick is sent as `model.set`;
 * the select shows it until the server records the change or refuses it.
 */
export function ModelPicker({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const client = useClient();
  const selectId = useId();
  const models = useAppStore((s) => s.models);
  const current = useSessionModel(sessionId);
  const online = useAppStore((s) => s.connection.status === "open");
  const lastError = useAppStore((s) => s.lastError);
  const [picked, setPicked] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a recorded change or a refusal ends the wait
  useEffect(() => setPicked(null), [current, lastError]);

  if (current === null) return null;
  // X1: an agent over MCP brings its own model; there is nothing to pick here.
  if (isDrivenOverMcp(current)) {
    return (
      <div className="model-picker">
        <span className="model-picker-label">{t("models.label")}</span>
        <span className="model-picker-external" data-testid="model-external">
          {t("models.overMcp", { client: mcpClientOf(current) })}
        </span>
      </div>
    );
  }
  return (
    <div className="model-picker">
      <label htmlFor={selectId} className="model-picker-label">
        {t("models.label")}
      </label>
      <select
        id={selectId}
        className="model-picker-select"
        data-testid="model-picker"
        value={picked ?? current}
        disabled={!online}
        onChange={(event) => {
          const ref = event.target.value;
          if (ref === current) return;
          if (client.send({ type: "model.set", sessionId, model: ref })) setPicked(ref);
        }}
      >
        {modelGroups(models, current).map((group) => (
          <optgroup key={group.provider} label={group.provider}>
            {group.models.map((model) => (
              <option key={model.ref} value={model.ref} disabled={model.disabled !== undefined}>
                {model.disabled === undefined
                  ? model.label
                  : t("models.disabled", { label: model.label, reason: model.disabled })}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
