import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a many-choice ask keeps Submit disabled until the answer fits its bounds, and refuses a pick past its maximum at the box", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Pick toppings");
  await expect(ask.card.getByRole("group", { name: "Choose 1 to 2" })).toBeVisible();
  await expect(ask.submit).toBeDisabled();

  await ask.card.getByRole("checkbox", { name: "Cheese" }).check();
  await expect(ask.card.getByRole("checkbox", { name: "Ham" })).toBeEnabled();
  await ask.card.getByRole("checkbox", { name: "Olives" }).check();
  // Two is the most: a third cannot be ticked, the two picked can be unticked.
  await expect(ask.card.getByRole("checkbox", { name: "Ham" })).toBeDisabled();
  await expect(ask.card.getByRole("checkbox", { name: "Olives" })).toBeEnabled();
  await expect(ask.errors).toHaveCount(0);
  await ask.card.getByRole("checkbox", { name: "Olives" }).uncheck();
  await expect(ask.card.getByRole("checkbox", { name: "Ham" })).toBeEnabled();
  await ask.card.getByRole("checkbox", { name: "Olives" }).check();
  await expect(ask.submit).toBeEnabled();
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Toppings noted.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Cheese, Olives"]);

  const request = lastRequestOf("Pick toppings");
  const answer = request.messages.find((message: any) => message.role === "tool");
  expect(answer.result).toEqual({ action: "accept", content: { selected: ["cheese", "olives"] } });
});
