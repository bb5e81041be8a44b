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
