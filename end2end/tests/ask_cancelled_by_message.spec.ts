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
  // Before it happens, the box says what a message does to the question, and offers the way to it.
  const hint = page.getByTestId("composer-hint");
  await expect(hint).toContainText("Sending a message skips it.");
  await expect(chat.composer).toHaveAttribute("placeholder", "Sending a message skips the question above");
  await hint.getByRole("button", { name: "Answer it (↑)" }).click();
  await expect(ask.card).toBeFocused();

  await chat.sendMessage("never mind");
  await expect(chat.assistantMessages().last()).toHaveText("Sure, forget the plan.");
  await expect(ask.summaries()).toHaveText(["– Not answered: you sent a message instead."]);
  await expect(chat.userMessages()).toHaveText(["Plan, then never mind", "never mind"]);
  await expect(hint).toHaveCount(0);
  await expect(chat.composer).toHaveAttribute("placeholder", "Message Palaver…");
});
