import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";
import { moveDeadline, seedCompletedTodo } from "./fixtures/database";

function historyIdOf(url: string): string {
  const id = new URL(url).searchParams.get("c");
  expect(id).toBeTruthy();
  return id!;
}

test("an approval shows its time left, under the hour approvals wait", async ({ page }) => {
  seedCompletedTodo(await signUpFreshUser(page));
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Approve before the hour is out");
  await expect(ask.card.getByTestId("ask-deadline")).toHaveText("Expires in 59 minutes");
  await ask.button("approve").click();
  await expect(chat.assistantMessages().last()).toHaveText("All clean.");
});

test("an ask the server expires shows as Expired, with when, without a reload", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("A question I answer too late");
  await expect(ask.button("option:red")).toBeVisible();
  // A day-long ask: no time left is shown, so only the server's ending can change the card.
  await expect(ask.card.getByTestId("ask-deadline")).toHaveCount(0);
  moveDeadline(historyIdOf(page.url()), -1);

  // The sweeper ends it; its askResolved event reloads the conversation. (An answer that
  // finds its ask due is refused with 409 ASK_EXPIRED: server/tests/http_asks.rs.)
  await expect(ask.summaries()).toContainText("Expired: nobody answered in time, so nothing was done.");
  // When, as the reader reads it: recent, so how long ago (the exact moment in the tooltip).
  await expect(ask.summaries().locator(".ask-card__ended")).toHaveText("(just now)");
  await expect(ask.summaries().locator("time")).toHaveAttribute("title", /^\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/);
  await expect(ask.card).toHaveCount(0);
  expect(chat.consoleErrors).toEqual([]);
});

test("a card left open counts down and turns into Expired at its deadline", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("A question I leave open");
  await expect(ask.button("option:red")).toBeVisible();
  moveDeadline(historyIdOf(page.url()), 4);
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(ask.card.getByTestId("ask-deadline")).toHaveText("Expires in less than a minute");
  // Nobody answers: the sweeper ends it, and the page shows so without a reload.
  await expect(ask.summaries()).toContainText("Expired: nobody answered in time", { timeout: 15_000 });
  await expect(ask.card).toHaveCount(0);
});
