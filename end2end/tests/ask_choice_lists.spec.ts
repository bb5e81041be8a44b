import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("more than eight options are searched, then picked from a list", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Where do you live?");
  await ask.card.getByLabel("Search the options").fill("nor");
  const list = ask.card.getByLabel("Choose one");
  await expect(list.getByRole("option")).toHaveText(["Norway"]);
  await list.selectOption("norway");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Noted.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Norway"]);
});

test("up to eight options that do not fit buttons are radios, used with the keyboard", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Pick a size");
  await expect(ask.card.getByRole("radio")).toHaveCount(4);
  await ask.card.getByRole("radio", { name: /Small/ }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(ask.card.getByRole("radio", { name: /Medium/ })).toBeChecked();
  await ask.submit.focus();
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Size noted.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Medium size, the one with a long label"]);
});
