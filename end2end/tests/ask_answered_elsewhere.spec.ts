import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an ask answered in another tab shows how it ended in the first, without a reload", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Plan in two tabs");
  await expect(new AskCard(page).card).toBeVisible();

  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await new AskCard(other).button("option:starter").click();
  await expect(otherChat.assistantMessages().last()).toHaveText("Starter it is.");

  // The first tab hears of the answer and shows how the ask ended, without a reload.
  await expect(new AskCard(page).summaries()).toHaveText(["✓ You chose: Starter"], { timeout: 5_000 });
  await expect(chat.assistantMessages().last()).toHaveText("Starter it is.");
  await expect(new AskCard(page).card).toHaveCount(0);
});
