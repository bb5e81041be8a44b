import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a sent message shows at once, the reply streams in, and both survive a reload", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();

  await chat.sendMessage("Tell me about Palaver");
  await expect(chat.userMessages().last()).toHaveText("Tell me about Palaver");

  // The mock model streams this reply slowly: the composer shows progress and cannot send twice.
  await expect(chat.send).toHaveText("Replying…");
  await expect(chat.send).toBeDisabled();
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Palaver is a");
  await expect(reply).not.toContainText("keeps every conversation");

  await chat.waitForReply();
  await expect(reply.locator("strong")).toHaveText("self-hostable");
  await expect(reply.getByRole("listitem")).toHaveText(["It streams replies", "It keeps every conversation"]);

  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await expect(chat.userMessages()).toHaveText(["Tell me about Palaver"]);
  await expect(chat.assistantMessages().last().getByRole("listitem")).toHaveCount(2);
  // Each message says when it was sent: recent, so how long ago (the moment itself on the element).
  const times = page.getByTestId("message-time");
  await expect(times).toHaveText(["just now", "just now"]);
  await expect(times.first().locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  await expect(chat.conversations.getByRole("link", { name: "Tell me about Palaver" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  expect(chat.consoleErrors).toEqual([]);
});

test("the message box grows with its text up to a limit, then scrolls", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  const height = async () => (await chat.composer.boundingBox())!.height;
  const empty = await height();
  await chat.composer.fill(Array.from({ length: 8 }, (_, line) => `line ${line + 1}`).join("\n"));
  expect(await height()).toBeGreaterThan(empty * 1.5);
  await chat.composer.fill(Array.from({ length: 60 }, (_, line) => `line ${line + 1}`).join("\n"));
  const viewport = page.viewportSize()!.height;
  expect(await height()).toBeLessThanOrEqual(viewport * 0.4 + 1);
  expect(await chat.composer.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
});

test("the message box has the focus on load, after New chat and once a question is answered; a skip link reaches it", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await expect(chat.composer).toBeFocused();

  await chat.sendMessage("Focus: pick a plan");
  await expect(ask.card).toBeVisible();
  await ask.button("option:team").click();
  await expect(chat.assistantMessages().last()).toHaveText("Done. Your team is on the Team plan.");
  await expect(chat.composer).toBeFocused();

  await page.getByTestId("conversation-search").focus();
  await chat.conversations.getByTestId("new-chat").click();
  await expect(chat.composer).toBeFocused();

  // The keyboard's first stop on the page is the way to the box: hidden until it is reached.
  const firstStop = await page.evaluate(
    () => document.querySelector("a[href], button, input, textarea, select, [tabindex]:not([tabindex='-1'])")?.textContent,
  );
  expect(firstStop).toBe("Skip to the message box");
  const skip = page.getByRole("link", { name: "Skip to the message box" });
  expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1);
  await skip.focus();
  expect((await skip.boundingBox())!.width).toBeGreaterThan(50);
  await page.keyboard.press("Enter");
  await expect(chat.composer).toBeFocused();
});
