import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a choice ask renders as buttons, and tapping one answers and continues the turn", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Set up billing");

  await expect(ask.card).toBeVisible();
  await expect(ask.card).not.toBeFocused();
  await expect(ask.card.getByRole("heading", { name: "Choose a plan" })).toBeVisible();
  await expect(ask.card.getByRole("group", { name: "Answers" }).getByRole("button")).toHaveText(["Team", "Starter", "Enterprise", "Skip"]);
  await expect(ask.card.getByText("Team — $20 per seat")).toBeVisible();

  await ask.button("option:team").click();
  await expect(chat.assistantMessages().last()).toHaveText("Done. Your team is on the Team plan.");
  await expect(ask.card).toHaveCount(0);
  await expect(ask.summaries()).toHaveText(["✓ You chose: Team"]);
  expect(chat.consoleErrors).toEqual([]);
});
