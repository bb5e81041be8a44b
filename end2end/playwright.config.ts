import { defineConfig } from "@playwright/test";

// The server under test: the dev build made by `cargo leptos build`, on its own port and a
// fresh database, with the scripted mock model so every reply is known in advance.
const port = 3100;
const root = "..";

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "rm -rf target/e2e && mkdir -p target/e2e && exec target/debug/palaver",
    cwd: root,
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      LEPTOS_OUTPUT_NAME: "palaver",
      LEPTOS_SITE_ROOT: "target/site",
      LEPTOS_SITE_PKG_DIR: "pkg",
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      PALAVER_DATABASE_URL: "sqlite://target/e2e/palaver.db?mode=rwc",
      PALAVER_DATA_DIR: "target/e2e/data",
      PALAVER_MODEL: "mock:end2end/mock-model.json",
      PALAVER_MOCK_LOG: "target/e2e/mock-log.jsonl",
      RUST_LOG: "warn",
    },
  },
});
