// The page's composited layers (and why) while a question card waits, after some cards came
// and went as questionToPixels asks them: which layers a new card repaints.
import { BenchServer } from "../lib/benchServer.ts";
import { launchChromium } from "../lib/browser.ts";
import { buildPage } from "../lib/build.ts";
import { addPageCss, sleep } from "../lib/session.ts";
import { askUntilShown, connectAgent, openAgentSession } from "../questionToPixels.ts";

const { outDir } = await buildPage();
const server = new BenchServer({ distDir: outDir });
const browser = await launchChromium();
await server.start();
const agent = await connectAgent(server);
const { context, page, events } = await openAgentSession(browser, server, agent);
await sleep(300);
if (process.env.CARD_FRAME_CSS) await addPageCss(page, process.env.CARD_FRAME_CSS);
const n = Number(process.argv[2] ?? 6);
for (let i = 0; i < n; i++) {
  const tag = `l${i}`;
  const call = await askUntilShown(agent, events, i % 2 ? "plan" : "generic", tag);
  if (i === n - 1) {
    const cdp = await context.newCDPSession(page);
    type Layer = {
      layerId: string;
      offsetX: number;
      offsetY: number;
      width: number;
      height: number;
      drawsContent: boolean;
      paintCount?: number;
    };
    const layers = new Promise<Layer[]>((resolve) =>
      cdp.on(
        "LayerTree.layerTreeDidChange",
        (e: { layers?: Layer[] }) => e.layers && resolve(e.layers),
      ),
    );
    await cdp.send("LayerTree.enable");
    await page.evaluate(() => document.body.style.setProperty("--x", String(Math.random())));
    for (const layer of await layers) {
      const { compositingReasons } = await cdp
        .send("LayerTree.compositingReasons", { layerId: layer.layerId })
        .catch(() => ({ compositingReasons: ["?"] }));
      console.log(
        `layer ${layer.layerId} ${layer.offsetX},${layer.offsetY} ${layer.width}x${layer.height} draws=${layer.drawsContent} paints=${layer.paintCount} ${compositingReasons.join(",")}`,
      );
    }
    console.log(
      await page.evaluate(() => {
        const s = document.querySelector(".transcript-scroller")!;
        return {
          wc: getComputedStyle(s).willChange,
          bg: getComputedStyle(s).backgroundColor,
          client: s.clientHeight,
          scroll: s.scrollHeight,
          top: s.scrollTop,
          entries: s.querySelectorAll(".entry").length,
          body: document.body.className,
          dom: document.getElementsByTagName("*").length,
        };
      }),
    );
    if (process.env.CARD_SHOT) await page.screenshot({ path: process.env.CARD_SHOT });
  }
  await sleep(150);
  call.abort();
  await sleep(100);
}
await agent.close();
await context.close();
await browser.close();
await server.stop();
process.exit(0);
