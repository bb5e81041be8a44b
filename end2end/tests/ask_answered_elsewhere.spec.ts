import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("answering an ask another tab already answered shows how it ended", async ({ page, context }) => {
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

  // The first tab still shows the ask as pending; its answer comes too late (409).
  await new AskCard(page).button("option:team").click();
  await expect(page.getByTestId("turn-error")).toHaveText("This ask is no longer pending. Here is how it ended.");
  await expect(new AskCard(page).summaries()).toHaveText(["✓ You chose: Starter"]);
  await expect(chat.assistantMessages().last()).toHaveText("Starter it is.");
});
