import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

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
  expect(wasmRequests.filter((path) => /\/split___watch_route_view_\d+\.wasm$/.test(path))).toHaveLength(1);
  expect(wasmRequests.filter((path) => /\/split___(storybook|settings|admin)/.test(path))).toEqual([]);
  expect(chat.consoleErrors).toEqual([]);
});
