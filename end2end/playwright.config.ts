import { defineConfig } from "@playwright/test";

// The servers under test: the dev build made by `cargo leptos build`, each on its own port with
// a fresh database and the scripted mock model, so every reply is known in advance. The chat
// server has open sign-up (each test signs up its own user); the accounts server starts empty,
// so its test creates the very first (admin) account. Both connect to the MCP servers of
// end2end/mcp-servers.json.
const port = 3100;
export const accountsPort = 3101;
const root = "..";

export const demoPort = 3102;
export const strictPort = 3103;
/** Where the chat server's MCP Apps sandbox listens: its second origin. */
export const appsPort = 3104;

function palaver(
  port: number,
  name: string,
  openSignup: boolean,
  model = "mock:end2end/mock-model.json",
  { mcp = model !== "demo", settings = {} }: { mcp?: boolean; settings?: Record<string, string> } = {},
) {
  const dir = `target/e2e/${name}`;
  return {
    // PALAVER_E2E_BIN runs the suite against another build (target/release/palaver after
    // `cargo leptos build --release`, whose site files replace the dev ones in target/site).
    command: `rm -rf ${dir} && mkdir -p ${dir} target/e2e/mcp-files && exec ${process.env.PALAVER_E2E_BIN ?? "target/debug/palaver"}`,
    cwd: root,
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      LEPTOS_OUTPUT_NAME: "palaver",
      LEPTOS_SITE_ROOT: "target/site",
      LEPTOS_SITE_PKG_DIR: "pkg",
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      PALAVER_DATABASE_URL: `sqlite://${dir}/palaver.db?mode=rwc`,
      PALAVER_DATA_DIR: `${dir}/data`,
      PALAVER_MODEL: model,
      PALAVER_MOCK_LOG: `${dir}/mock-log.jsonl`,
      PALAVER_OPEN_SIGNUP: openSignup ? "true" : "false",
      // Every test signs up its own user, all from this machine.
      PALAVER_SIGNUPS_PER_HOUR: "100000",
      // As scripts/run.sh starts it: html blocks on.
      PALAVER_UI_BLOCKS_HTML: "true",
      // The demo server runs on run.sh's defaults; the others connect to real MCP servers from
      // npm (scripts/mcp): the reference server and a filesystem one.
      ...(mcp ? { PALAVER_MCP_CONFIG: "end2end/mcp-servers.json" } : {}),
      // The chat server offers a second model to pick (its default keeps a label of its own).
      ...(name === "chat" ? { PALAVER_MODELS: `${model}=Scripted,demo=Demo agent` } : {}),
      ...settings,
      RUST_LOG: "warn",
    },
  };
}

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
  // The third runs the keyless demo agent, as `scripts/run.sh` does. The fourth keeps html
  // blocks off and allows images from two hosts (one written as an origin with a port).
  webServer: [
    palaver(port, "chat", true, undefined, { settings: { PALAVER_APPS_ADDR: `127.0.0.1:${appsPort}` } }),
    palaver(accountsPort, "accounts", false),
    palaver(demoPort, "demo", true, "demo"),
    palaver(strictPort, "strict", true, undefined, {
      mcp: false,
      settings: {
        PALAVER_UI_BLOCKS_HTML: "false",
        PALAVER_IMAGE_HOSTS: "images.example.com, https://Pictures.Example.org:8443/",
      },
    }),
  ],
});
