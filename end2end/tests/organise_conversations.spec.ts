import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("Pin, archive and share conversations from the list", async ({ page, browser }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  for (const message of [
    "Organise: a conversation to pin",
    "Organise: a conversation to archive",
    "Organise: a conversation to share",
  ]) {
    await chat.open();
    await chat.sendMessage(message);
    await chat.waitForReply();
  }
  const list = chat.conversations;
  const entry = (name: string) => list.getByTestId("conversation").filter({ hasText: name });
  const menu = (name: string) => list.getByRole("group", { name: `More for Organise: a conversation ${name}` });

  // Pin, from the keyboard: Shift+F10 on the link opens its menu, its first button pins.
  await list.getByRole("link", { name: "Organise: a conversation to pin" }).focus();
  await page.keyboard.press("Shift+F10");
  await expect(menu("to pin").getByTestId("pin-conversation")).toBeFocused();
  await page.keyboard.press("Enter");
  const pinnedGroup = list.locator(".conversations__group").first();
  await expect(pinnedGroup).toHaveText("Pinned");
  await expect(list.locator(".conversations__list").first()).toContainText("Organise: a conversation to pin");
  await chat.open();
  await expect(list.locator(".conversations__group").first()).toHaveText("Pinned");
  await expect(list.locator(".conversations__list").first().getByTestId("conversation")).toHaveText(
    /Organise: a conversation to pin/,
  );

  // Archive: it leaves the list, the Archived section shows it, Unarchive brings it back.
  await entry("to archive").getByTestId("conversation-menu").click();
  await menu("to archive").getByTestId("archive-conversation").click();
  await expect(list.getByRole("link", { name: "Organise: a conversation to archive" })).toHaveCount(0);
  await list.getByTestId("archived-toggle").click();
  const archived = list.getByTestId("archived-list");
  await expect(archived.getByRole("link", { name: "Organise: a conversation to archive" })).toBeVisible();
  await archived.getByTestId("conversation-menu").click();
  await expect(archived.getByTestId("archive-conversation")).toHaveText("Unarchive");
  await archived.getByTestId("archive-conversation").click();
  await expect(list.getByTestId("archived-list")).toHaveCount(0);
  await expect(list.getByText("No archived conversations.")).toBeVisible();
  await expect(list.getByRole("link", { name: "Organise: a conversation to archive" })).toHaveCount(1);

  // Share: a link, opened in a fresh browser with no session, shows the transcript and nothing that acts.
  await entry("to share").getByTestId("conversation-menu").click();
  await menu("to share").getByTestId("share-conversation").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("make-share-link").click();
  const url = await dialog.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByTestId("copy-share-link")).toBeVisible();
  await expect(entry("to share").getByTestId("shared-marker")).toBeVisible();

  const stranger = await browser.newContext();
  const reader = await stranger.newPage();
  const response = await reader.goto(url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toBe("noindex");
  await reader.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const shared = reader.getByTestId("shared-page");
  await expect(shared.getByRole("heading", { level: 1 })).toHaveText("Organise: a conversation to share");
  await expect(shared.getByTestId("user-message")).toHaveText("Organise: a conversation to share");
  await expect(shared.getByTestId("assistant-message")).toContainText("Shared replies are read-only.");
  await expect(shared.locator("strong")).toHaveText("read-only");
  await expect(reader.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await expect(shared.getByRole("button")).toHaveCount(0);
  await expect(reader.getByText("Organise: a conversation to pin")).toHaveCount(0);

  // Stop sharing: the same link is not found at once.
  await dialog.getByTestId("stop-sharing").click();
  await expect(dialog.getByTestId("make-share-link")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(entry("to share").getByTestId("shared-marker")).toHaveCount(0);
  const gone = await reader.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(reader.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(reader.getByText("Shared replies are")).toHaveCount(0);
  await stranger.close();
});
