import { expect, type Frame, type Page, test } from "@playwright/test";
import { appsPort } from "../playwright.config";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf, mockLog } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// MCP Apps: the chat server draws a tool's app from its sandbox origin (PALAVER_APPS_ADDR in
// playwright.config.ts). The app is the extension's own example from npm
// (@modelcontextprotocol/server-basic-vanillajs, "basic" in end2end/mcp-servers.json): its view
// shows the time its tool's result carries, and asks its server for the time again.
// Each server's apps have an origin of their own under localhost.
const sandboxOrigin = new RegExp(`^http://basic-[0-9a-f]{8}\\.localhost:${appsPort}$`);

/** Sends `prompt` (the mock model calls the tool with an app for it), and waits for the turn to end. */
async function callTheApp(page: Page, prompt: string): Promise<ChatPage> {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage(prompt);
  await expect(chat.assistantMessages().last()).toHaveText("That is the server's time.");
  return chat;
}

/** The app's own frame: the inner frame of the sandbox page. */
function appFrame(page: Page) {
  return page.frameLocator('[data-testid="mcp-app"] iframe').frameLocator("#app");
}

/** The app's document, once its time shows, to run scripts in as the app. */
async function appDocument(page: Page): Promise<Frame> {
  await expect(appFrame(page).locator("#server-time")).toHaveText(/^\d{4}-\d\d-\d\dT/);
  const sandbox = page.frames().find((frame) => sandboxOrigin.test(new URL(frame.url()).origin));
  expect(sandbox, "the sandbox page is framed").toBeTruthy();
  return sandbox!.childFrames()[0];
}

test("an MCP App is drawn in its sandbox with its tool's result, calls its server, and is drawn again after a reload", async ({
  page,
}) => {
  const chat = await callTheApp(page, "Show the server time through an MCP App");
  const frame = page.getByTestId("mcp-app").locator("iframe");
  await expect(frame).toHaveAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  expect(new URL((await frame.getAttribute("src"))!).origin).toMatch(sandboxOrigin);
  await expect(page.getByTestId("mcp-app")).toContainText('App of the MCP server "basic"');

  // The view shows the time of the call the model made: the stored result.
  const time = appFrame(page).locator("#server-time");
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT/);
  const stored = (await time.textContent())!;
  await page.getByTestId("tool-line").locator("summary").click();
  await expect(page.getByTestId("tool-line")).toContainText(stored);

  // Its own call goes to its server through Palaver, and its answer comes back to it.
  const called = page.waitForResponse((response) => response.url().endsWith("/apps/call"));
  await appFrame(page).getByRole("button", { name: "Get Server Time" }).click();
  expect((await called).status()).toBe(200);
  await expect(time).not.toHaveText(stored);

  // A reload draws it again from the stored call.
  await chat.open(page.url().replace(/^https?:\/\/[^/]+/, ""));
  await expect(appFrame(page).locator("#server-time")).toHaveText(stored);
});

test("an MCP App cannot reach the chat's page, cookies or storage, navigate it, or connect where it did not declare", async ({
  page,
}) => {
  await callTheApp(page, "Show the server time in an MCP App, kept apart");
  const app = await appDocument(page);
  const chatUrl = page.url();
  expect(await app.evaluate(() => window.origin)).toMatch(sandboxOrigin);
  // The chat's document is another origin's.
  expect(
    await app.evaluate(() => {
      try {
        return window.top!.document.title;
      } catch {
        return "refused";
      }
    }),
  ).toBe("refused");
  // The session cookie is HttpOnly, and the chat's storage is its own origin's (the app, on
  // another site, may get no storage at all).
  expect(await app.evaluate(() => document.cookie)).toBe("");
  await page.evaluate(() => localStorage.setItem("palaver-probe", "the chat's"));
  const seen = await app.evaluate(() => {
    try {
      return localStorage.getItem("palaver-probe");
    } catch {
      return "no storage";
    }
  });
  expect(seen).not.toBe("the chat's");
  // The app declared no connections: the sandbox's policy refuses any, the chat's own too.
  const chatOrigin = new URL(chatUrl).origin;
  expect(
    await app.evaluate(async (origin) => {
      try {
        await fetch(`${origin}/health`);
        return "fetched";
      } catch {
        return "refused";
      }
    }, chatOrigin),
  ).toBe("refused");
  // It cannot send the chat elsewhere.
  await app.evaluate(() => {
    try {
      window.top!.location.href = "https://example.com/";
    } catch {
      // Refused: the frame may not navigate the page that holds it.
    }
  });
  expect(page.url()).toBe(chatUrl);
});

test("a message from a window other than the app's frame is ignored", async ({ page }) => {
  await callTheApp(page, "Show the server time in an MCP App, then forge a message");
  await appDocument(page);
  let calls = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/apps/call")) calls += 1;
  });
  // The page itself (not the app's frame) posts a call as if it were the app.
  await page.evaluate(() =>
    window.postMessage(
      { jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "get-time", arguments: {} } },
      window.origin,
    ),
  );
  // A call the app does make is answered: so the forged one, sent first, would have been seen.
  const called = page.waitForResponse((response) => response.url().endsWith("/apps/call"));
  await appFrame(page).getByRole("button", { name: "Get Server Time" }).click();
  await called;
  expect(calls).toBe(1);
});

test("the page's theme reaches a drawn app, and a link the app opens is the person's choice", async ({ page }) => {
  await callTheApp(page, "Show the server time in an MCP App, then switch the theme");
  await appDocument(page);
  // The example applies the host's theme to its own page.
  const toggle = page.getByTestId("theme-toggle");
  const appRoot = appFrame(page).locator("html");
  const textColour = () => appRoot.evaluate((root) => root.style.getPropertyValue("--color-text-primary"));
  await toggle.click();
  await expect(toggle).toHaveText("Theme: light");
  await expect(appRoot).toHaveAttribute("data-theme", "light");
  const light = await textColour();
  await toggle.click();
  await expect(toggle).toHaveText("Theme: dark");
  await expect(appRoot).toHaveAttribute("data-theme", "dark");
  // Palaver's colours for the theme come with it.
  await expect.poll(textColour).not.toBe(light);

  // The person is asked first, with the whole address and the host it opens; declined, nothing opens.
  let opened = 0;
  page.context().on("page", () => (opened += 1));
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await appFrame(page).getByRole("button", { name: "Open Link" }).click();
  await expect.poll(() => asked).toContain('The app of the MCP server "basic" wants to open this link in a new tab:');
  expect(asked).toContain("https://modelcontextprotocol.io/");
  expect(asked).toContain("The link opens modelcontextprotocol.io.");
  // Accepted, it opens in a new tab.
  await page.context().route("https://modelcontextprotocol.io/**", (route) => route.fulfill({ body: "MCP" }));
  page.once("dialog", (dialog) => void dialog.accept());
  const tab = page.context().waitForEvent("page");
  await appFrame(page).getByRole("button", { name: "Open Link" }).click();
  await (await tab).waitForURL("https://modelcontextprotocol.io/");
  expect(opened).toBe(1);
});

test("an MCP App's call of a tool that needs approval waits for Palaver's card, runs once approved, and is audited", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  // "guarded" is the same example app on a server whose every call needs approval: the
  // model's call is approved on its card first.
  await chat.sendMessage("Show the server time from an app whose calls need approval");
  await ask.button("approve").click();
  await expect(chat.assistantMessages().last()).toHaveText("That is the server's time.");
  const time = appFrame(page).locator("#server-time");
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT/);
  const stored = (await time.textContent())!;

  // The app's own call shows Palaver's card (the page's, not the app's), naming the server,
  // the tool and its arguments; nothing runs before the answer.
  await appFrame(page).getByRole("button", { name: "Get Server Time" }).click();
  const card = page.getByTestId("app-call-approval");
  await expect(card.locator(".ask-card__title")).toHaveText("The app of the MCP server guarded wants to run a tool");
  await expect(card.getByTestId("approval-tool")).toContainText("guarded__get-time");
  await expect(card.getByTestId("call-arguments-none")).toBeVisible();
  await expect(time).toHaveText(stored);

  // Denied: the app is told the call failed (the example shows "[ERROR]" for a failed call).
  const denied = page.waitForResponse((response) => /\/apps\/approvals\/[0-9a-f]+$/.test(response.url()));
  await card.getByTestId("app-call-deny").click();
  expect((await denied).status()).toBe(200);
  await expect(card).toHaveCount(0);
  await expect(time).toHaveText("[ERROR]");

  // Approved: the call runs once, and its answer reaches the app.
  await appFrame(page).getByRole("button", { name: "Get Server Time" }).click();
  await card.getByTestId("app-call-approve").click();
  await expect(card).toHaveCount(0);
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT/);
  expect(await time.textContent()).not.toBe(stored);

  // The audit trail holds the model's approval and both of the app's answers, as the person's.
  const audit = await (await page.request.get("/gpt/audit")).json();
  const decisions = audit.data.entries
    .filter((entry: any) => entry.toolCallId.startsWith("app-"))
    .map((entry: any) => [entry.decision, entry.surface]);
  expect(decisions.sort()).toEqual([
    ["accept", "web"],
    ["decline", "web"],
  ]);
});

test("on a phone an MCP App fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await callTheApp(page, "Show the server time in an MCP App on a phone");
  await appDocument(page);
  const frame = await page.getByTestId("mcp-app").locator("iframe").boundingBox();
  expect(frame!.x).toBeGreaterThanOrEqual(0);
  expect(frame!.x + frame!.width).toBeLessThanOrEqual(360);
  // The view lays itself out to the frame's width: nothing of it is cut off at the side.
  const app = appFrame(page).locator("html");
  expect(await app.evaluate((root) => root.scrollWidth <= root.clientWidth)).toBe(true);
});

/** The sandbox page keeps the messages it relays (`window.__received`), from its first script on;
 * the teardown's request and answer are also handed to the test (the returned list), since the
 * frames are gone once it ends. */
async function recordMessages(page: Page): Promise<any[]> {
  const teardown: any[] = [];
  await page.context().exposeBinding("__teardown", (_source, message) => teardown.push(message));
  await page.context().addInitScript(() => {
    (window as any).__received = [];
    window.addEventListener("message", (event) => {
      (window as any).__received.push(event.data);
      if (event.data?.method === "ui/resource-teardown" || event.data?.id === "palaver-teardown") {
        (window as any).__teardown(event.data);
      }
    });
  });
  return teardown;
}

/** The app's document keeps the messages it is posted from now on (the sandbox writes the
 * app's HTML into its frame, which drops listeners set before). */
async function listenInApp(app: Frame) {
  await app.evaluate(() => {
    (window as any).__received = [];
    window.addEventListener("message", (event) => (window as any).__received.push(event.data));
  });
}

/** The answer to request `id` among the messages `frame` kept, once it has come. */
async function answerTo(frame: Frame, id: string | number): Promise<any> {
  const find = (id: string | number) => (window as any).__received.find((m: any) => m?.id === id && "result" in m);
  await expect.poll(() => frame.evaluate(find, id)).toBeTruthy();
  return frame.evaluate(find, id);
}

/** Sends a JSON-RPC request from the app's own window, as its SDK would. */
async function requestFromApp(app: Frame, id: string, method: string, params: object) {
  await app.evaluate(([id, method, params]) => window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*"), [
    id,
    method,
    params,
  ] as const);
}

test("an MCP App gets Palaver's look, reads its server's resources, is shown full screen and back, what it tells the model reaches the model and comes back after a reload, and it is torn down when closed", async ({
  page,
}) => {
  const teardown = await recordMessages(page);
  const chat = await callTheApp(page, "Show the server time in an MCP App that remembers");
  let app = await appDocument(page);
  await listenInApp(app);
  // Palaver's look as CSS variables, in the app's context and applied by the example to its page.
  const initialized = await answerTo(app.parentFrame()!, 0);
  const variables = initialized.result.hostContext.styles.variables;
  expect(variables["--color-background-primary"]).toMatch(/^(#|rgb)/);
  expect(variables["--font-sans"]).toContain("system-ui");
  expect(await app.evaluate(() => document.documentElement.style.getPropertyValue("--color-text-primary"))).toBe(
    variables["--color-text-primary"],
  );

  // The room it has reaches it as the window changes size.
  await page.setViewportSize({ width: 1100, height: 760 });
  await expect
    .poll(() =>
      app.evaluate(() =>
        (window as any).__received.some(
          (m: any) => m?.method === "ui/notifications/host-context-changed" && m.params.containerDimensions?.width > 0,
        ),
      ),
    )
    .toBe(true);

  // Its own server's resources, read through Palaver.
  await requestFromApp(app, "res-1", "resources/read", { uri: "ui://get-time/mcp-app.html" });
  expect((await answerTo(app, "res-1")).result.contents[0].mimeType).toBe("text/html;profile=mcp-app");

  // Full screen, on the app's asking; back inline on the person's.
  const figure = page.getByTestId("mcp-app");
  await requestFromApp(app, "mode-1", "ui/request-display-mode", { mode: "fullscreen" });
  expect((await answerTo(app, "mode-1")).result).toEqual({ mode: "fullscreen" });
  await expect(figure).toHaveAttribute("data-display-mode", "fullscreen");
  const covered = await figure.boundingBox();
  expect(covered!.width).toBe(page.viewportSize()!.width);
  await page.getByTestId("mcp-app-inline").click();
  await expect(figure).toHaveAttribute("data-display-mode", "inline");
  const changes = await app.evaluate(() =>
    (window as any).__received
      .filter((m: any) => m?.method === "ui/notifications/host-context-changed" && m.params.displayMode)
      .map((m: any) => m.params.displayMode),
  );
  expect(changes).toEqual(["fullscreen", "inline"]);

  // A message the app sends while the person is not using it (the focus is on Palaver's own
  // button) is not sent.
  await requestFromApp(app, "msg-1", "ui/message", { role: "user", content: [{ type: "text", text: "Sneaky" }] });
  expect((await answerTo(app, "msg-1")).result.isError).toBe(true);
  await expect(page.getByTestId("user-message").filter({ hasText: "Sneaky" })).toHaveCount(0);

  // What the app tells the model: the model's next step reads it.
  const told = { content: [{ type: "text", text: "Row 4 is picked" }], structuredContent: { row: 4 } };
  await requestFromApp(app, "ctx-1", "ui/update-model-context", told);
  expect((await answerTo(app, "ctx-1")).result).toEqual({});
  await chat.sendMessage("What does the app show now?");
  await expect(chat.assistantMessages().last()).toHaveText("The app shows row 4.");
  const asked = mockLog().findLast((request) =>
    request.messages.some((message: any) => message.text === "What does the app show now?"),
  );
  expect(asked.system).toContain('(its call `call_time`): Row 4 is picked data: {"row":4}');

  // Drawn again after a reload, the app is given back what it told (Palaver's `modelContext`).
  await chat.open(page.url().replace(/^https?:\/\/[^/]+/, ""));
  app = await appDocument(page);
  const sandbox = app.parentFrame()!;
  expect((await answerTo(sandbox, 0)).result.hostContext.modelContext).toEqual(told);

  // Closed by the person, the app is asked to tear down first, then removed; it can be drawn again.
  await figure.getByTestId("mcp-app-close").click();
  await expect(page.getByTestId("mcp-app-closed")).toContainText("The app is closed.");
  await expect(figure).toHaveCount(0);
  // Palaver's request reached the sandbox, and the app's answer came back: the sandbox heard it
  // from the app, and the chat's page from the sandbox.
  expect(teardown.map((message) => message.method ?? (message.error ? "error" : "result"))).toEqual([
    "ui/resource-teardown",
    "result",
    "result",
  ]);
  await page.getByTestId("mcp-app-closed").getByRole("button", { name: "Show it again" }).click();
  await appDocument(page);
  await expect(figure).toHaveCount(1);
});

test("a message an MCP App sends for the person is sent to the conversation and shown as the app's", async ({
  page,
}) => {
  const chat = await callTheApp(page, "Show the server time in an MCP App that sends a message");
  await appDocument(page);
  await appFrame(page).getByRole("button", { name: "Send Message" }).click();
  const sent = page.getByTestId("user-message").last();
  await expect(sent).toContainText("This is message text.");
  await expect(sent.getByTestId("message-from-app")).toHaveText('Sent by the app of the MCP server "basic"');
  await expect(chat.assistantMessages().last()).toHaveText("The app's message is read.");
  // The model reads it as the app's, not as the person's own words.
  const told = mockLog()
    .flatMap((request) => request.messages)
    .find((message: any) => message.text?.startsWith("This is message text."));
  expect(told.text).toBe('This is message text.\n\n[Sent for the person by the app of the MCP server "basic".]');
  await chat.open(page.url().replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByTestId("user-message").last().getByTestId("message-from-app")).toBeVisible();
});

/** The app drawn for the pending question: the inner frame of its sandbox page. */
function questionApp(page: Page) {
  return page.getByTestId("app-ask").frameLocator("iframe").frameLocator("#app");
}

test("a question its server's app draws is answered in the app, and what the app sends is checked by Palaver", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  // The desk server names its seat picker app for the question of `pick_seat` (ext-apps' draft
  // of app-rendered elicitations); Palaver draws the app in place of its card.
  await chat.sendMessage("Pick a seat through the seat picker app");
  const card = page.getByTestId("app-ask");
  await expect(card).toContainText("desk");
  await expect(questionApp(page).locator("#question")).toHaveText("Which seat would you like?");

  // A seat the server never offered: Palaver refuses the answer, says why, and asks the app again.
  const refused = page.waitForResponse((response) => response.url().endsWith("/gpt/prompt"));
  await questionApp(page).getByRole("button", { name: "Seat Z9" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByTestId("app-ask-errors")).toContainText('The app\'s answer: "seat" must be one of the offered choices.');
  await expect(questionApp(page).getByRole("button", { name: "Seat B4" })).toBeEnabled();

  // An offered seat: the call finishes with it, and the turn goes on.
  await questionApp(page).getByRole("button", { name: "Seat B4" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("Seat picked.");
  await expect(card).toHaveCount(0);
  await page.getByTestId("tool-line").locator("summary").click();
  await expect(page.getByTestId("tool-line")).toContainText("Seat B4 is yours.");
  const told = lastRequestOf("Pick a seat through the seat picker app");
  expect(JSON.stringify(told.messages)).toContain("Seat B4 is yours.");
});

test("a question an app draws can be answered on Palaver's card instead", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Pick a seat on Palaver's card");
  await expect(questionApp(page).locator("#question")).toHaveText("Which seat would you like?");
  await page.getByTestId("app-ask-card").click();
  await expect(page.getByTestId("app-ask-instead")).toHaveText("You chose Palaver's card for this question.");
  await ask.card.getByRole("button", { name: "B4" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("Seat picked on the card.");
  await page.getByTestId("tool-line").locator("summary").click();
  await expect(page.getByTestId("tool-line")).toContainText("Seat B4 is yours.");
});

test("an MCP App is drawn while the model writes its call, and is told the arguments as they grow", async ({ page }) => {
  await recordMessages(page);
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  // The model writes the call and falls silent before it finishes (the mock stalls there).
  await chat.sendMessage("Show the server time while the model writes its call");
  await expect(page.getByTestId("mcp-app")).toBeVisible();
  const relayed = async (method: string) => {
    const sandbox = page.frames().find((frame) => /^http/.test(frame.url()) && sandboxOrigin.test(new URL(frame.url()).origin));
    if (!sandbox) return [];
    return sandbox.evaluate(
      (method) => (window as any).__received.filter((m: any) => m?.method === method).map((m: any) => m.params),
      method,
    );
  };
  // Read as far as they go, the string being written closed; sent again as they grew (by 64
  // bytes or more). The app hears the latest once it starts, then each one after.
  await expect
    .poll(() => relayed("ui/notifications/tool-input-partial"))
    .toContainEqual({ arguments: { zone: "Europe/Oslo", note: "x".repeat(70) } });
  // Not whole yet: no input, no result.
  expect(await relayed("ui/notifications/tool-input")).toEqual([]);
  expect(await relayed("ui/notifications/tool-result")).toEqual([]);
  // Stopped before the call was made, the app goes with the unfinished call.
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("mcp-app")).toHaveCount(0);
});

test("after three refused answers from the app, Palaver's card asks the question", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Pick a seat with an app that keeps getting it wrong");
  for (let refusal = 1; refusal <= 3; refusal++) {
    const unoffered = questionApp(page).getByRole("button", { name: "Seat Z9" });
    await expect(unoffered).toBeEnabled();
    const refused = page.waitForResponse((response) => response.url().endsWith("/gpt/prompt"));
    await unoffered.click();
    expect((await refused).status()).toBe(400);
  }
  await expect(page.getByTestId("app-ask-instead")).toHaveText(
    "The app's answers did not fit what the server asked: answer here instead.",
  );
  // The card starts clean: the app's refusals are not shown as its own.
  await expect(ask.card).not.toContainText("The app's answer");
  await ask.card.getByRole("button", { name: "A2" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("Seat picked at last.");
});
