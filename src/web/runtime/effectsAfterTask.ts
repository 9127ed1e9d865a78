import { options } from "preact";

// Preact runs effects after the next animation frame, or a 35 ms timer when none comes (a
// hidden tab). React runs them in a task of their own right after the render's: a card's
// focus and its measurements should not wait for a frame, and a page whose timers are held
// (a backgrounded tab, a test's paused clock) still runs them. A message is such a task.
const channel = new MessageChannel();
let queued: (() => void)[] = [];
channel.port1.onmessage = () => {
  const run = queued;
  queued = [];
  for (const callback of run) callback();
};

options.requestAnimationFrame = (callback) => {
  queued.push(callback);
  if (queued.length === 1) channel.port2.postMessage(null);
};
