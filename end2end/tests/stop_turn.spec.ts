import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("Stop ends a running reply and keeps what was said", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Tell me a very long story");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Once upon a time");

  await page.getByTestId("stop").click();
  await expect(chat.send).toHaveText("Send");
  await expect(page.getByTestId("stop")).toHaveCount(0);
  const kept = (await reply.textContent()) ?? "";
  expect(kept).not.toContain("and it did.");

  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await expect(chat.assistantMessages().last()).toHaveText(kept.trim());
});
