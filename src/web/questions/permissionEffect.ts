/** W13: what a tool approval would do, read from the tool's input as the server sent it. */
export type PermissionEffect =
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; before: string; after: string; replaceAll: boolean }
  | { kind: "command"; command: string };

function text(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

export function permissionEffectOf(input: unknown): PermissionEffect | null {
  if (typeof input !== "object" || input === null) return null;
  const record = input as Record<string, unknown>;
  const path = text(record, "path") ?? text(record, "file_path");
  const content = text(record, "content");
  if (path !== undefined && content !== undefined) return { kind: "write", path, content };
  const before = text(record, "old_string");
  const after = text(record, "new_string");
  if (path !== undefined && before !== undefined && after !== undefined) {
    return { kind: "edit", path, before, after, replaceAll: record.replace_all === true };
  }
  const command = text(record, "command");
  if (command !== undefined) return { kind: "command", command };
  return null;
}
