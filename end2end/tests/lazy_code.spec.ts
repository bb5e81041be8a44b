import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

const watchChunk = /\/pkg\/split_palaver_watch_page\.wasm$/;

test("the chat loads no lazy route's code, and the watch page loads its chunk on the first visit", async ({ page }) => {
  const wasmRequests: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith(".wasm")) wasmRequests.push(path);
  });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  expect(wasmRequests).toContain("/pkg/palaver.wasm");
  expect(wasmRequests.filter((path) => path.includes("/split_"))).toEqual([]);

  // A client-side navigation: the router fetches the watch page's chunk, then shows the page.
  await page.getByRole("link", { name: "Watch" }).click();
  await expect(page.getByText("Nothing to answer.")).toBeVisible();
  expect(wasmRequests.filter((path) => watchChunk.test(path))).toHaveLength(1);
  expect(wasmRequests.filter((path) => /\/split_palaver_(storybook|settings|admin)/.test(path))).toEqual([]);
  expect(chat.consoleErrors).toEqual([]);
});

test("when a page's chunk cannot be fetched, following the link loads that page in full", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  let watchChunkRequests = 0;
  await page.route(watchChunk, (route) => (watchChunkRequests++ === 0 ? route.abort() : route.continue()));

  await page.getByRole("link", { name: "Watch" }).click();
  await expect(page).toHaveURL(/\/watch$/);
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(page.getByText("Nothing to answer.")).toBeVisible();
  expect(watchChunkRequests).toBe(2);
  // The split loader reports the failed fetch; the app itself never crashed.
  expect(chat.consoleErrors.filter((error) => !/Failed to (fetch|load resource)/.test(error))).toEqual([]);
});

const blocksChunk = /\/pkg\/split_palaver_blocks\.wasm$/;

test("the block renderer is fetched when a reply is a document, and before a page with one is hydrated", async ({
  page,
}) => {
  const blocksRequests: string[] = [];
  page.on("request", (request) => {
    if (blocksChunk.test(new URL(request.url()).pathname)) blocksRequests.push(request.url());
  });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A plain answer");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("Just prose, no document.");
  expect(blocksRequests).toHaveLength(0);

  await page.getByRole("link", { name: "New chat" }).click();
  await chat.sendMessage("A dinner plan");
  await chat.waitForReply();
  const reply = chat.assistantMessages().last();
  await expect(reply.getByRole("heading", { name: "Dinner for four" })).toBeVisible();
  expect(blocksRequests).toHaveLength(1);

  // Opening the conversation again hydrates the server-rendered document: its stepper works.
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  expect(blocksRequests).toHaveLength(2);
  const reloaded = chat.assistantMessages().last();
  await expect(reloaded.getByTestId("stepper-value")).toHaveText("4 people");
  await reloaded.getByRole("button", { name: "Increase Guests" }).click();
  await expect(reloaded.getByTestId("stepper-value")).toHaveText("5 people");
  expect(chat.consoleErrors).toEqual([]);
});

test("when the block renderer cannot be fetched, the reply and the page say so", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await page.route(blocksChunk, (route) => route.abort());

  await chat.sendMessage("A document without its renderer");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last().getByRole("alert")).toHaveText(
    "This reply's blocks could not be loaded. Reload the page to try again.",
  );

  // The server renders the document; without its renderer the page cannot be hydrated.
  await page.reload();
  await expect(page.getByRole("alert").first()).toHaveText(
    "Part of Palaver could not be loaded. Reload the page to try again.",
  );
  await expect(chat.assistantMessages().last().getByRole("heading", { name: "Shown by the server only" })).toBeVisible();
});

const askChunk = /\/pkg\/split_palaver_ask_cards\.wasm$/;

test("the ask controls are fetched when an ask is pending, and before a page with one is hydrated", async ({ page }) => {
  const askRequests: string[] = [];
  page.on("request", (request) => {
    if (askChunk.test(new URL(request.url()).pathname)) askRequests.push(request.url());
  });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  expect(askRequests).toHaveLength(0);

  await chat.sendMessage("Ask me a lazy question");
  await expect(page.getByRole("button", { name: "Large" })).toBeVisible();
  expect(askRequests).toHaveLength(1);

  // Opening the conversation again hydrates the server-rendered card: its buttons answer.
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  expect(askRequests).toHaveLength(2);
  await page.getByRole("button", { name: "Large" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("Large it is.");
  await expect(page.getByTestId("ask-summary")).toBeVisible();
  expect(chat.consoleErrors).toEqual([]);
});
