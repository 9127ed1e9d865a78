// @vitest-environment jsdom
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";

const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

const ran = vi.fn();
function Card() {
  useEffect(() => ran(), []);
  return <p>card</p>;
}

afterEach(() => {
  vi.useRealTimers();
});

it("[W1] a component's effect runs in the task after its render, with the page's timers and frames held", async () => {
  // A paused page clock (and a backgrounded tab) holds timers and frames; effects must not wait on them.
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame", "cancelAnimationFrame"],
  });
  // Not through act(), which flushes effects itself.
  const root = createRoot(document.body.appendChild(document.createElement("div")));
  root.render(<Card />);
  await nextTask();
  await nextTask();
  expect(ran).toHaveBeenCalledTimes(1);
  root.unmount();
});
