// Time from navigation to an interactive ask card on a conversation with 200 rows.
//
//   node scripts/ask-card-timing.mjs            (after `cargo leptos build`)
//   PALAVER_BIN=target/release/palaver node scripts/ask-card-timing.mjs   (after `cargo leptos build --release`)
//
// Starts the built server on 127.0.0.1:3400 with a fresh database and the mock model, seeds a
// conversation of 198 rows plus a turn that asks (200 rows), then loads it in Debian's chromium
// five times and prints the median time until the ask card's buttons can be pressed
// (hydrated). Bounded in count and time; it stops the server it started.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "end2end", "package.json"));
const { chromium } = require("@playwright/test");
const port = 3400;
const base = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), "palaver-timing-"));

const plan = {
  prompt: "Which plan should I set up?",
  select: "one",
  options: [
    { id: "starter", label: "Starter" },
    { id: "team", label: "Team" },
    { id: "enterprise", label: "Enterprise" },
  ],
};
const filler = Array.from({ length: 99 }, (_, i) => ({ text: `Reply ${i}: **markdown** with a [link](https://example.com).` }));
writeFileSync(
  join(work, "mock.json"),
  JSON.stringify({ responses: [...filler, { toolCalls: [{ id: "call_timing", name: "ask_choice", input: plan }] }] }),
);

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
    PALAVER_MODEL: `mock:${join(work, "mock.json")}`,
    RUST_LOG: "warn",
  },
  stdio: "inherit",
});

async function call(path, body, cookie) {
  const response = await fetch(base + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", origin: base, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response;
}

try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const signup = await call("/auth/signup", { username: "timer", password: "correct horse battery" });
  const cookie = signup.headers.get("set-cookie").split(";")[0];
  let history;
  for (let turn = 0; turn < 100; turn++) {
    const response = await call("/gpt/prompt", history ? { prompt: `Message ${turn}`, historyId: history } : { prompt: "Message 0" }, cookie);
    const events = (await response.text()).split("\n\n").filter((block) => block.startsWith("data: "));
    history = JSON.parse(events[events.length - 1].slice(6)).historyId;
  }
  const rows = (await (await call(`/gpt/histories/${history}`, undefined, cookie)).json()).data.prompts.length;

  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
  const times = [];
  for (let run = 0; run < 5; run++) {
    const context = await browser.newContext();
    await context.addCookies([{ name: "palaver_session", value: cookie.split("=")[1], url: base }]);
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`${base}/?c=${history}`);
    await page.waitForFunction(() => window.__PALAVER_HYDRATED__ === true);
    await page.getByTestId("ask-button-option:team").waitFor();
    times.push(Date.now() - started);
    await context.close();
  }
  await browser.close();
  times.sort((a, b) => a - b);
  console.log(`rows: ${rows}; navigation to interactive ask card: median ${times[2]} ms (runs: ${times.join(", ")} ms)`);
} finally {
  server.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
