import { expect, test, type Page } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test.use({ viewport: { width: 360, height: 740 } });

async function pageWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test("at 360 px an ask card fits the screen and can be filled in", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Narrow form please");
  const card = page.getByTestId("ask-card");
  await expect(card).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(360);
  const box = await card.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  await card.getByLabel("Company name").fill("Acme");
  await expect(card.getByRole("button", { name: /Submit|Send/ }).first()).toBeEnabled();
  await expect(chat.composer).toBeVisible();
  await page.screenshot({ path: "test-results/narrow-ask.png" });
  expect(chat.consoleErrors).toEqual([]);
});

test("at 360 px a block reply fits the screen", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Narrow blocks please");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last().getByTestId("blocks")).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(360);
  expect(chat.consoleErrors).toEqual([]);
});
