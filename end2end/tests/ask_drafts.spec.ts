import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an answer being prepared survives the transcript being rebuilt", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Draft my note");
  await chat.waitForReply();
  const editor = ask.card.getByLabel("Draft");
  await editor.fill("Hello, the note is half written");

  // Another conversation and back: the chat rebuilds the transcript, and the card with it.
  await page.getByRole("link", { name: "New chat" }).click();
  await expect(ask.card).toHaveCount(0);
  await chat.conversations.getByRole("link", { name: "Draft my note" }).click();
  await expect(editor).toHaveValue("Hello, the note is half written");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Note saved.");
  expect(chat.consoleErrors).toEqual([]);
});

test("a long list's search survives the card being rebuilt", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Which country next?");
  await chat.waitForReply();
  await ask.card.getByLabel("Search the options").fill("nor");

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(ask.card).toHaveCount(0);
  await chat.conversations.getByRole("link", { name: "Which country next?" }).click();
  await expect(ask.card.getByLabel("Search the options")).toHaveValue("nor");
  const list = ask.card.getByLabel("Choose one");
  await expect(list.getByRole("option")).toHaveText(["Norway"]);
  await list.selectOption("norway");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Noted.");
  expect(chat.consoleErrors).toEqual([]);
});
