// How soon a streaming block reply shows something: the demo agent's `dashboard`, sent from the
// chat page in chromium, three times.
//
//   node scripts/first-block-timing.mjs            (after `cargo leptos build --split`)
//   PALAVER_BIN=target/release/palaver node scripts/first-block-timing.mjs   (after a release build)
//
// Starts the built server on 127.0.0.1:3401 with a fresh database and the keyless demo agent,
// which streams its document a word at a time, 15 ms apart. Prints, per run, the time from Enter
// to the first visible block, to the first chart, and to the checked document, and the medians
// as fractions of the whole reply: the stream sets the pace, so a fraction near what the
// document's own text order allows (its datasets come first, as the contract orders the keys)
// means the renderer keeps up; a larger one, that drawing falls behind the stream. Bounded in
// count and time; it stops the server it started.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "end2end", "package.json"));
const { chromium } = require("@playwright/test");
const port = 3401;
const base = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), "palaver-first-block-"));

const server = spawn(join(root, process.env.PALAVER_BIN ?? "target/debug/palaver"), [], {
  cwd: root,
  env: {
    ...process.env,
    LEPTOS_OUTPUT_NAME: "palaver",
    LEPTOS_SITE_ROOT: "target/site",
    LEPTOS_SITE_PKG_DIR: "pkg",
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    PALAVER_DATABASE_URL: `sqlite://${work}/timing.db?mode=rwc`,
    PALAVER_DATA_DIR: work,
    RUST_LOG: "warn",
  },
  stdio: "inherit",
});

// Where the document's first block can first be drawn: the words before its second block starts
// (a block is complete once the next one begins), as a fraction of all its words.
const document = readFileSync(join(root, "contract/fixtures/blocks/demo/dashboard.yaml"), "utf8");
const words = (text) => text.split(/(?<=\s)/).filter((word) => word.length > 0).length;
const blocksAt = document.indexOf("\nblocks:");
const secondBlock = document.indexOf("\n  - type:", document.indexOf("\n  - type:", blocksAt) + 1);
const allowed = words(document.slice(0, secondBlock)) / words(document);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const signup = await fetch(`${base}/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username: "timer", password: "correct horse battery" }),
  });
  const cookie = signup.headers.get("set-cookie").split(";")[0];
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
  const runs = [];
  for (let run = 0; run < 3; run++) {
    const context = await browser.newContext();
    await context.addCookies([{ name: "palaver_session", value: cookie.split("=")[1], url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => window.__PALAVER_HYDRATED__ === true);
    // The page notes when each first shows, from the moment the message is sent.
    await page.evaluate(() => {
      const seen = {};
      window.__seen = seen;
      const note = () => {
        const now = performance.now() - window.__sent;
        if (!seen.block && document.querySelector("[data-testid=blocks-streaming] [data-testid=blocks] > *")) seen.block = now;
        if (!seen.chart && document.querySelector(".chart")) seen.chart = now;
        if (!seen.done && document.querySelector("[data-testid=blocks]") && !document.querySelector("[data-testid=blocks-streaming]"))
          seen.done = now;
      };
      new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
    });
    const composer = page.locator("#composer-input");
    await composer.fill("dashboard");
    await page.evaluate(() => (window.__sent = performance.now()));
    await composer.press("Enter");
    await page.waitForFunction(() => window.__seen.done !== undefined, null, { timeout: 60_000 });
    runs.push(await page.evaluate(() => window.__seen));
    await context.close();
  }
  await browser.close();
  for (const [index, run] of runs.entries()) {
    console.log(`run ${index + 1}: first block ${Math.round(run.block)} ms, first chart ${Math.round(run.chart)} ms, checked document ${Math.round(run.done)} ms`);
  }
  const [block, chart, done] = ["block", "chart", "done"].map((key) => median(runs.map((run) => run[key])));
  console.log(
    `median: first block ${Math.round(block)} ms (${(block / done).toFixed(2)} of the reply; the document's order allows ${allowed.toFixed(2)}), ` +
      `first chart ${Math.round(chart)} ms (${(chart / done).toFixed(2)}), checked document ${Math.round(done)} ms`,
  );
} finally {
  server.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
