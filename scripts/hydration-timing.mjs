// The time each page takes to hydrate in Chromium: from navigation start to the moment the app
// marks itself hydrated (`__PALAVER_HYDRATED__`), the median of `LOADS` loads after one that is
// not counted (the first compiles the wasm). Used by scripts/scale.py; prints a JSON array of
// milliseconds, one per path.
//
//   node scripts/hydration-timing.mjs <base url> <cookie name=value> <path>...

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "end2end", "package.json"));
const { chromium } = require("@playwright/test");

const [base, cookie, ...paths] = process.argv.slice(2);
const [name, value] = cookie.split(/=(.*)/s);
// Three loads moved by up to 2× between pages of the same size on a busy machine.
const LOADS = 9;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The system's chromium, as the browser tests use it (Playwright's own download is not installed).
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
try {
  const context = await browser.newContext();
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  const times = [];
  for (const path of paths) {
    const loads = [];
    for (let i = 0; i <= LOADS; i++) {
      await page.goto(`${base}${path}`, { waitUntil: "commit", timeout: 120_000 });
      await page.waitForFunction(() => window.__PALAVER_HYDRATED__ === true, null, {
        polling: "raf",
        timeout: 120_000,
      });
      if (i > 0) loads.push(await page.evaluate(() => performance.now()));
    }
    times.push(median(loads));
  }
  console.log(JSON.stringify(times));
} finally {
  await browser.close();
}
