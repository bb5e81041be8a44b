import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

// Thumbs under a reply rate it (PATCH /gpt/histories/{id}/rating); the rating survives a reload,
// and pressing the pressed thumb takes it away. The message has its own scripted reply: a
// script's replies are used up once per server run, and another spec uses up "First of two".
test("a reply is rated with a thumb, kept across a reload, and unrated again", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Rate this reply");
  await chat.waitForReply();
  const up = page.getByRole("button", { name: "Good reply" });
  // Drawn, not an emoji a machine may lack the font for.
  await expect(up.locator("svg")).toHaveCount(1);
  await expect(up).toHaveText("");
  const down = page.getByRole("button", { name: "Bad reply" });
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await up.click();
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "false");
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(down).toHaveAttribute("aria-pressed", "false");
  expect(chat.consoleErrors).toEqual([]);
});
