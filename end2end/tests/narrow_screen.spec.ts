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

test("at 360 px the header is one row and the conversation list is a drawer", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Narrow first chat");
  await chat.waitForReply();
  const first = page.url();
  await chat.open("/");
  await chat.sendMessage("Narrow second chat");
  await chat.waitForReply();

  const header = await page.locator(".app-header").boundingBox();
  expect(header!.height).toBeLessThanOrEqual(60);
  expect(await pageWidth(page)).toBeLessThanOrEqual(360);
  // Every control of the header and the composer is a touch target of 44 px or more.
  for (const control of await page.locator(".app-header :is(a, button, summary):visible, .composer button:visible").all()) {
    const box = await control.boundingBox();
    expect(box!.height, await control.evaluate((element) => element.outerHTML)).toBeGreaterThanOrEqual(44);
  }

  const list = page.getByRole("navigation", { name: "Conversations" });
  const toggle = page.getByRole("button", { name: "Conversations" });
  await expect(list).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(list).toBeVisible();
  await expect(list).toBeInViewport();
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();

  await toggle.click();
  await page.locator(".drawer-backdrop").click({ position: { x: 340, y: 400 } });
  await expect(list).toBeHidden();

  await toggle.click();
  await list.getByRole("link", { name: "Narrow first chat" }).click();
  await expect(page).toHaveURL(first);
  await expect(list).toBeHidden();
  await expect(chat.userMessages().last()).toHaveText("Narrow first chat");
  expect(chat.consoleErrors).toEqual([]);
});

test("at 360 px the composer stays on the screen while a reply streams", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Narrow slow reply please");
  const stop = page.getByTestId("stop");
  await expect(stop).toBeVisible();
  for (const part of [page.locator(".composer"), stop, chat.send, chat.composer]) {
    const box = await part.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(box!.y + box!.height).toBeLessThanOrEqual(740);
  }
  expect(await pageWidth(page)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: "test-results/narrow-streaming.png" });
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toContainText("Narrow line 24.");
  // The transcript followed the reply to its end.
  await expect(chat.assistantMessages().last().getByText("Narrow line 24.")).toBeInViewport();
});
