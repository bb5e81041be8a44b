import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a many-choice ask keeps Submit disabled until the answer fits its bounds", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Pick toppings");
  await expect(ask.card.getByRole("group", { name: "Choose 1 to 2" })).toBeVisible();
  await expect(ask.submit).toBeDisabled();

  for (const topping of ["Cheese", "Olives", "Ham"]) {
    await ask.card.getByRole("checkbox", { name: topping }).check();
  }
  await expect(ask.submit).toBeDisabled();
  await expect(ask.errors).toContainText("Choose 1 to 2 options; the answer selects 3.");

  await ask.card.getByRole("checkbox", { name: "Ham" }).uncheck();
  await expect(ask.submit).toBeEnabled();
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Toppings noted.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Cheese, Olives"]);

  const request = lastRequestOf("Pick toppings");
  const answer = request.messages.find((message: any) => message.role === "tool");
  expect(answer.result).toEqual({ action: "accept", content: { selected: ["cheese", "olives"] } });
});
