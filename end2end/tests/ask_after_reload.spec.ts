import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a pending ask survives a reload and can still be answered", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Plan after a reload");
  await expect(ask.card).toBeVisible();
  await expect(page).toHaveURL(/\?c=/);

  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await ask.button("option:enterprise").click();
  await expect(chat.assistantMessages().last()).toHaveText("Enterprise it is.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Enterprise"]);
});
