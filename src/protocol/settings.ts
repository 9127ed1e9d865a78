import { z } from "zod/mini";

/** Server-stored user settings (A5). Language lives in the browser. */
export const Settings = z.strictObject({
  autoContinue: z.boolean(),
  theme: z.enum(["system", "light", "dark"]),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsPatch = z.partial(Settings);
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const DEFAULT_SETTINGS: Settings = { autoContinue: true, theme: "system" };
