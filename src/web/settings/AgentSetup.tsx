import { useId, useRef, useState } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";

type CopyState = "idle" | "copied" | "failed";

/** One value to paste into an agent's configuration, with a button that copies it. */
function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation("settings");
  const [state, setState] = useState<CopyState>("idle");
  const codeRef = useRef<HTMLElement>(null);
  const labelId = useId();
  const copy = () => {
    // Off a secure origin there is no navigator.clipboard at all: that is a refusal too.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(
        () => setState("copied"),
        () => {
          // No clipboard (permission, an insecure origin): select it for the user's own copy.
          const code = codeRef.current;
          if (code) window.getSelection()?.selectAllChildren(code);
          setState("failed");
        },
      );
  };
  return (
    <div className="agent-setup-row">
      <span id={labelId} className="setting-label">
        {label}
      </span>
      <div className="agent-setup-value">
        <code ref={codeRef}>{value}</code>
        <button
          type="button"
          className="btn"
          aria-describedby={labelId}
          onClick={copy}
          onBlur={() => setState("idle")}
        >
          {t("agents.copy")}
        </button>
      </div>
      <p className="setting-help" aria-live="polite">
        {state === "copied" ? t("agents.copied") : state === "failed" ? t("agents.copyFailed") : ""}
      </p>
    </div>
  );
}

/**
 * X1: how an agent reaches these cards over MCP: this server's endpoint, and the Claude Code
 * command with the token left to an environment variable (the page never shows the token:
 * a person's own token, S3, is not one an agent may use).
 */
export function AgentSetup() {
  const { t } = useTranslation("settings");
  const sectionId = useId();
  const endpoint = new URL("/mcp", window.location.href).href;
  const command = `claude mcp add --transport http plangate ${endpoint} --header "Authorization: Bearer $PLANGATE_TOKEN"`;
  return (
    <section className="settings-section" aria-labelledby={sectionId}>
      <h3 id={sectionId}>{t("section.agents")}</h3>
      <p className="setting-help">{t("agents.description")}</p>
      <CopyRow label={t("agents.endpoint")} value={endpoint} />
      <CopyRow label={t("agents.claudeCode")} value={command} />
      <p className="setting-help">{t("agents.token")}</p>
    </section>
  );
}
