import { expect, test, type Page } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// ControlOrMeta is Ctrl here and ⌘ on a Mac, as the page reads it.
const NEW_CHAT = "ControlOrMeta+Shift+O";
const FOCUS_COMPOSER = "ControlOrMeta+Shift+E";
const SEARCH = "ControlOrMeta+K";
const STOP = "ControlOrMeta+Shift+X";
const ANSWER = "ControlOrMeta+Shift+Enter";

async function openChat(page: Page) {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  return chat;
}

test("? opens the shortcuts sheet outside a text field; Escape closes it and the focus goes back", async ({ page }) => {
  const chat = await openChat(page);
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toBeHidden();

  // In the message box, ? is a character like any other.
  await chat.composer.press("?");
  await expect(chat.composer).toHaveValue("?");
  await expect(sheet).toBeHidden();
  // Nor does a key that is part of an IME composition open it.
  const newChat = page.getByTestId("new-chat");
  await newChat.focus();
  await newChat.evaluate((link) =>
    link.dispatchEvent(new KeyboardEvent("keydown", { key: "?", bubbles: true, cancelable: true, isComposing: true })),
  );
  await expect(sheet).toBeHidden();

  await page.keyboard.press("?");
  await expect(sheet).toBeVisible();
  const rows = sheet.getByRole("row");
  await expect(rows).toHaveCount(8);
  await expect(rows.filter({ hasText: "Start a new chat" })).toContainText("Ctrl+Shift+O");
  await expect(rows.filter({ hasText: "Go to the message box" })).toContainText("Ctrl+Shift+E");
  await expect(rows.filter({ hasText: "Search conversations" })).toContainText("Ctrl+K or /");
  await expect(rows.filter({ hasText: "Stop the reply" })).toContainText("Ctrl+Shift+X");
  await expect(rows.filter({ hasText: "Answer the waiting question" })).toContainText("Ctrl+Shift+Enter");
  await expect(rows.filter({ hasText: "next conversation" })).toContainText("Alt+↓");
  await expect(rows.filter({ hasText: "previous conversation" })).toContainText("Alt+↑");
  // A modal: the focus is inside it, and the page's own keys wait.
  await expect(sheet.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press(SEARCH);
  await expect(page.getByTestId("conversation-search")).not.toBeFocused();

  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(newChat).toBeFocused();

  // The chat bar's button opens it for the pointer; Close shuts it and the focus goes back.
  const button = page.getByRole("button", { name: "Keyboard shortcuts" });
  await button.click();
  await expect(sheet).toBeVisible();
  await sheet.getByRole("button", { name: "Close" }).click();
  await expect(sheet).toBeHidden();
  await expect(button).toBeFocused();
  expect(chat.consoleErrors).toEqual([]);
});

test("the new chat shortcut leaves a conversation for a new one, the message box focused", async ({ page }) => {
  const chat = await openChat(page);
  await chat.sendMessage("Shortcut: a chat to leave");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("This chat stays in the list.");
  const search = page.getByTestId("conversation-search");
  await search.focus();

  await page.keyboard.press(NEW_CHAT);
  await expect(page).toHaveURL(/\/$/);
  await expect(chat.composer).toBeFocused();
  await expect(chat.assistantMessages()).toHaveCount(0);
  await expect(chat.conversations.getByRole("link", { name: "Shortcut: a chat to leave" })).toBeVisible();
});

test("the search and message box shortcuts move the focus between them, from inside either", async ({ page }) => {
  const chat = await openChat(page);
  const search = page.getByTestId("conversation-search");
  await expect(chat.composer).toBeFocused();

  await page.keyboard.press(SEARCH);
  await expect(search).toBeFocused();
  await page.keyboard.type("abc");
  await page.keyboard.press(FOCUS_COMPOSER);
  await expect(chat.composer).toBeFocused();
  // The keys did their work and typed nothing.
  await expect(search).toHaveValue("abc");
  await expect(chat.composer).toHaveValue("");
});

test("Alt+↓ and Alt+↑ open the next and the previous conversation in the list", async ({ page }) => {
  const chat = await openChat(page);
  await chat.sendMessage("Shortcut: the older chat");
  await chat.waitForReply();
  await page.keyboard.press(NEW_CHAT);
  await expect(page).toHaveURL(/\/$/);
  await chat.sendMessage("Shortcut: the newer chat");
  await chat.waitForReply();
  const older = chat.conversations.getByRole("link", { name: "Shortcut: the older chat" });
  const newer = chat.conversations.getByRole("link", { name: "Shortcut: the newer chat" });
  await expect(newer).toHaveAttribute("aria-current", "page");
  await expect(older).not.toHaveAttribute("aria-current", "page");

  // Not while typing: what was typed stays here, in its conversation.
  await chat.composer.fill("half a thought");
  await chat.composer.press("Alt+ArrowDown");
  await expect(newer).toHaveAttribute("aria-current", "page");
  await expect(chat.composer).toHaveValue("half a thought");
  await chat.composer.fill("");
  // Outside a text field (the chat focuses the message box after each move: leave it each time).
  const leaveTheBox = () => page.evaluate(() => (document.activeElement as HTMLElement).blur());

  // The list has the newest first: down is the older one.
  await leaveTheBox();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(older).toHaveAttribute("aria-current", "page");
  await expect(newer).not.toHaveAttribute("aria-current", "page");
  await expect(chat.assistantMessages().last()).toHaveText("The older reply.");
  // At the end of the list it stays.
  await leaveTheBox();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(older).toHaveAttribute("aria-current", "page");

  await leaveTheBox();
  await page.keyboard.press("Alt+ArrowUp");
  await expect(newer).toHaveAttribute("aria-current", "page");
  await expect(older).not.toHaveAttribute("aria-current", "page");
  await expect(chat.assistantMessages().last()).toHaveText("The newer reply.");
});

test("the answer shortcut presses the waiting card's main button, from the message box", async ({ page }) => {
  const chat = await openChat(page);
  const ask = new AskCard(page);
  await chat.sendMessage("Shortcut: pick a plan");
  await expect(ask.card).toBeVisible();
  await expect(ask.button("option:team")).toBeEnabled();
  await chat.composer.focus();

  await page.keyboard.press(ANSWER);
  await expect(chat.assistantMessages().last()).toHaveText("Done. Your team is on the Team plan.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Team"]);
  await expect(chat.composer).toHaveValue("");
});

test("the answer shortcut leaves a card whose answer is not valid yet", async ({ page }) => {
  const chat = await openChat(page);
  const ask = new AskCard(page);
  await chat.sendMessage("Shortcut: invoice details");
  await expect(ask.card).toBeVisible();
  await expect(ask.submit).toBeDisabled();

  // The required field is empty: its Submit is disabled, and the key sends nothing.
  await chat.composer.focus();
  await page.keyboard.press(ANSWER);
  await page.waitForTimeout(500);
  await expect(ask.card).toBeVisible();
  await expect(ask.summaries()).toHaveCount(0);

  await ask.card.getByLabel("Company name").fill("Acme");
  await expect(ask.submit).toBeEnabled();
  await page.keyboard.press(ANSWER);
  await expect(chat.assistantMessages().last()).toHaveText("Invoice details saved.");
  await expect(ask.summaries()).toHaveText(["✓ You sent the form (1 field)"]);
});

test("the stop shortcut stops a running reply, from outside the message box", async ({ page }) => {
  const chat = await openChat(page);
  await chat.sendMessage("Shortcut: a very long story");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Once upon a time");
  await expect(page.getByTestId("stop")).toBeVisible();
  // Away from the box, whose own Escape stops a reply too.
  await page.getByTestId("conversation-search").focus();

  await page.keyboard.press(STOP);
  await expect(chat.send).toHaveText("Send");
  await expect(page.getByTestId("stop")).toHaveCount(0);
  expect((await reply.textContent()) ?? "").not.toContain("and it did.");
});
