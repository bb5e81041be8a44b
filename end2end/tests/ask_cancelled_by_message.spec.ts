import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("sending a message while an ask is pending cancels it", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Plan, then never mind");
  await expect(ask.card).toBeVisible();

  await chat.sendMessage("never mind");
  await expect(chat.assistantMessages().last()).toHaveText("Sure, forget the plan.");
  await expect(ask.summaries()).toHaveText(["– Not answered: you sent a message instead."]);
  await expect(chat.userMessages()).toHaveText(["Plan, then never mind", "never mind"]);
});
