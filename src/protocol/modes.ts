import { z } from "zod/mini";

/** P1: the permission mode; plan is a separate flag on top of it. */
export const PermissionMode = z.enum(["build", "edit", "yolo", "auto"]);
export type PermissionMode = z.infer<typeof PermissionMode>;

export const ExecutionMode = z.strictObject({
  permissionMode: PermissionMode,
  planEnabled: z.boolean(),
});
export type ExecutionMode = z.infer<typeof ExecutionMode>;

/** Names a user can type in `/mode <name>` or cycle through with Shift+Tab (P2). */
export const MODE_NAMES = ["plan", "build", "edit", "yolo", "auto"] as const;
export const ModeName = z.enum(MODE_NAMES);
export type ModeName = z.infer<typeof ModeName>;
