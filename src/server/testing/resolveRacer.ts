// A plangate store in a process of its own that resolves the same interactions as another
// one at the same moments (S2's exactly-once, raced for real). Prints one JSON line.
import { systemClock } from "../clock.ts";
import { AlreadyResolvedError } from "../store/errors.ts";
import { openStore } from "../store/store.ts";

const [url, startAtText, roundsText, slotText, name] = process.argv.slice(2);
const store = openStore(url!, systemClock);
const startAt = Number(startAtText);
const outcomes: ("won" | "lost")[] = [];
for (let round = 0; round < Number(roundsText); round++) {
  const slot = startAt + round * Number(slotText);
  while (Date.now() < slot) {
    // spin: both processes leave the wait within a millisecond of each other
  }
  try {
    store.log.append("s1", {
      kind: "interaction.resolved",
      interactionId: `q${round}`,
      outcome: { type: "cancelled" },
    });
    outcomes.push("won");
  } catch (error) {
    if (!(error instanceof AlreadyResolvedError)) throw error;
    outcomes.push("lost");
  }
}
store.close();
process.stdout.write(`${JSON.stringify({ name, outcomes })}\n`);
