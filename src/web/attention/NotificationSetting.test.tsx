// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { NotificationSetting } from "./NotificationSetting.tsx";

describe("NotificationSetting", () => {
  it("[W4] asks the browser for permission only on a click, and shows the answer", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    renderShell(
      <NotificationSetting
        permission={() => "default"}
        request={async () => {
          asked.push("asked");
          return "granted";
        }}
      />,
      { frames: [welcomeFrame()] },
    );
    expect(asked).toEqual([]);
    const enable = screen.getByRole("button", { name: "Allow notifications" });
    expect(enable).toHaveAccessibleDescription(/background/);
    await user.click(enable);
    expect(asked).toEqual(["asked"]);
    expect(await screen.findByText("Allowed")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Allow notifications" })).toBeNull();
  });

  it("[W4] says how to undo a block, in Chinese too", () => {
    renderShell(<NotificationSetting permission={() => "denied"} />, {
      frames: [welcomeFrame()],
      language: "zh-CN",
    });
    expect(screen.getByText("浏览器通知")).toBeInTheDocument();
    expect(screen.getByTestId("notifications-state")).toHaveTextContent("浏览器已阻止通知");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("[W4] tells a browser without notifications that it cannot have them", () => {
    renderShell(<NotificationSetting permission={() => "unsupported"} />, {
      frames: [welcomeFrame()],
    });
    expect(screen.getByTestId("notifications-state")).toHaveTextContent(
      "This browser cannot show notifications.",
    );
  });
});
