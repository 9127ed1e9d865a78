import { isPlangateSecretPath } from "../permissions/protectedPaths.ts";
import { pathsOf } from "../permissions/rules.ts";
import type { ToolContext } from "./contract.ts";

/** R9: a file holding plangate's own data, judged as named and at its real path. */
export function isSecretFile(workspace: string, absolutePath: string): boolean {
  return pathsOf(workspace, absolutePath).some(isPlangateSecretPath);
}

/** R10: the filter a listing tool applies; without a host, plangate's secrets alone. */
export function hiddenFor(
  context: Pick<ToolContext, "workspace" | "hiddenFrom">,
  toolName: string,
): (absolutePath: string) => boolean {
  return (
    context.hiddenFrom?.(toolName) ??
    ((absolutePath) => isSecretFile(context.workspace, absolutePath))
  );
}

export const REDACTED = "[redacted by plangate]";

/** Secrets shorter than this are not secrets worth the noise of blanking every match. */
const MIN_SECRET_LENGTH = 8;

/** A key written into a JSON file (`"apiKey": "…"`), wherever that file lives. */
const KEY_FIELD = /("(?:apiKey|api_key)"\s*:\s*")((?:[^"\\]|\\.)+)(")/gi;

/** R9: the text with plangate's secret values and any JSON key fields blanked out. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text.replace(KEY_FIELD, `$1${REDACTED}$3`);
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** The redaction of one tool run, with the secrets read once. */
export async function redactorFor(
  context: Pick<ToolContext, "secrets">,
): Promise<(text: string) => string> {
  const secrets = (await context.secrets?.().catch(() => [])) ?? [];
  return (text) => redactSecrets(text, secrets);
}
