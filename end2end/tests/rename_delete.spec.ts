import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("A conversation is renamed and deleted from the list, by keyboard, with a confirmation", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A conversation to rename");
  await chat.waitForReply();
  const renamedUrl = page.url();
  await chat.open();
  await chat.sendMessage("A conversation to delete");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("Soon to be gone.");

  const list = chat.conversations;
  const links = list.getByRole("link", { name: /^A conversation to/ });
  await expect(links).toHaveCount(2);

  // Rename from the keyboard: the button is reachable with Tab, Enter opens the field (focused,
  // the old title selected), Enter saves.
  const rename = list.getByRole("button", { name: "Rename A conversation to rename" });
  await rename.focus();
  await page.keyboard.press("Enter");
  const field = list.getByRole("textbox", { name: "Conversation title" });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("A conversation to rename");
  await page.keyboard.type("Kept by keyboard");
  await page.keyboard.press("Escape");
  await expect(field).toHaveCount(0);
  await expect(list.getByRole("link", { name: "A conversation to rename" })).toBeVisible();

  await rename.focus();
  await page.keyboard.press("Enter");
  await expect(field).toBeFocused();
  await page.keyboard.type("Receipts, March");
  await page.keyboard.press("Enter");
  await expect(list.getByRole("link", { name: "Receipts, March" })).toBeVisible();
  await expect(list.getByRole("link", { name: "A conversation to rename" })).toHaveCount(0);

  // An empty title is refused with the reason, and nothing changes.
  await list.getByRole("button", { name: "Rename Receipts, March" }).click();
  await field.fill("   ");
  await list.getByRole("button", { name: "Save" }).click();
  await expect(list.getByRole("alert")).toHaveText("A title cannot be empty.");
  await page.keyboard.press("Escape");

  // Delete asks first; Cancel (focused) and Escape keep the conversation.
  const remove = list.getByRole("button", { name: "Delete A conversation to delete" });
  await remove.click();
  const confirm = list.getByRole("alertdialog", { name: "Delete conversation" });
  await expect(confirm).toContainText("Delete “A conversation to delete”?");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(list.getByRole("link", { name: "A conversation to delete" })).toBeVisible();

  // Deleting the open conversation leaves it for a new chat.
  await remove.focus();
  await page.keyboard.press("Enter");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(list.getByRole("link", { name: "A conversation to delete" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await expect(chat.transcript).toContainText("Start a conversation");

  await page.reload();
  await chat.open();
  await expect(list.getByRole("link", { name: "Receipts, March" })).toBeVisible();
  await expect(list.getByRole("link", { name: "A conversation to delete" })).toHaveCount(0);
  await chat.open(new URL(renamedUrl).pathname + new URL(renamedUrl).search);
  await expect(chat.assistantMessages().last()).toHaveText("Happy to be renamed.");
  // The one error the browser logs is the refused empty title's 400.
  expect(chat.consoleErrors).toEqual(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
});

test("each conversation is one tab stop: F2 renames it, Delete deletes it, the arrows move along", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("One tab stop, the older");
  await chat.waitForReply();
  await chat.open();
  await chat.sendMessage("One tab stop, the newer");
  await chat.waitForReply();

  const list = chat.conversations;
  const newest = list.getByRole("link", { name: "One tab stop, the newer" });
  const older = list.getByRole("link", { name: "One tab stop, the older" });
  await newest.focus();
  await page.keyboard.press("Tab");
  await expect(older).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(newest).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(older).toBeFocused();

  await page.keyboard.press("F2");
  const field = list.getByRole("textbox", { name: "Conversation title" });
  await expect(field).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(older).toBeFocused();

  await page.keyboard.press("Delete");
  const confirm = list.getByRole("alertdialog", { name: "Delete conversation" });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(older).toBeFocused();
});
