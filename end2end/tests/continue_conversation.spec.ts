import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a conversation continues, and New chat starts another", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();

  await chat.sendMessage("First of two");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("Reply one.");
  const firstUrl = page.url();

  await chat.sendMessage("And the second");
  await chat.waitForReply();
  await expect(chat.assistantMessages()).toHaveText(["Reply one.", "Reply two."]);
  expect(page.url()).toBe(firstUrl);

  await page.getByTestId("new-chat").click();
  await expect(page).toHaveURL(/\/$/);
  await expect(chat.transcript).toContainText("Start a conversation");
  await expect(chat.conversations.getByRole("link", { name: "First of two" })).toBeVisible();
});
