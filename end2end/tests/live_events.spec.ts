import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an ask made in one tab shows in a second tab and on the watch, and is answered there", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Hello from the first tab");
  await expect(chat.assistantMessages().last()).toHaveText("Hello.");

  const second = await context.newPage();
  const secondChat = new ChatPage(second);
  await secondChat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  const watch = await context.newPage();
  let watchLooked = 0;
  watch.on("request", (request) => {
    if (new URL(request.url()).pathname === "/gpt/histories/pendingAsks") watchLooked += 1;
  });
  await watch.goto("/watch");
  await watch.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(watch.getByText("Nothing to answer.")).toBeVisible();
  // The watch no longer polls: idle, it asks for nothing.
  const looked = watchLooked;
  await watch.waitForTimeout(4_000);
  expect(watchLooked).toBe(looked);
  await expect(second.getByTestId("inbox-count")).toBeHidden();

  await chat.sendMessage("Which plan?");
  await expect(new AskCard(page).card).toBeVisible();
  // No reload anywhere: the live events bring the ask (the chat never polls; the watch, idle,
  // asked for nothing above). The allowance is room for a loaded CI machine.
  await expect(new AskCard(second).button("option:team")).toBeVisible({ timeout: 5_000 });
  await expect(second.getByTestId("inbox-count")).toHaveText("1");
  await expect(watch.getByTestId("watch-button-option:team")).toBeVisible({ timeout: 5_000 });

  await watch.getByTestId("watch-button-option:team").click();
  await expect(watch.getByTestId("watch-reply")).toHaveText("Team it is.");
  for (const tab of [page, second]) {
    await expect(new AskCard(tab).summaries()).toHaveText(["✓ You chose: Team"], { timeout: 5_000 });
    await expect(new ChatPage(tab).assistantMessages().last()).toHaveText("Team it is.");
    await expect(tab.getByTestId("inbox-count")).toBeHidden();
  }
});

test("the inbox counts the asks waiting, in the tab's title too, and answers a simple one", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page).toHaveTitle("Palaver");
  // Nothing waits: no badge.
  await expect(page.getByTestId("inbox-count")).toHaveCount(0);
  await chat.sendMessage("A plan from the inbox");
  await expect(new AskCard(page).card).toBeVisible();
  await expect(page.getByTestId("inbox-count")).toHaveText("1");
  // The tab names the conversation as the list does, and counts what waits.
  await expect(page).toHaveTitle("(1) A plan from the inbox – Palaver");
  await expect(chat.conversations.locator(".conversations__list li").first()).toContainText("A plan from the inbox");

  await page.getByTestId("inbox").locator("summary").click();
  const item = page.getByTestId("inbox-item");
  await expect(item).toHaveCount(1);
  await expect(item.locator(".inbox__open")).toHaveText("Choose a plan");
  // A conversation that has only asked has no title yet (the first reply names it): the inbox
  // names it as the list does, by its first message.
  await expect(item).toContainText("A plan from the inbox · asked just now");
  await item.getByTestId("inbox-button-option:starter").click();

  await expect(page.getByTestId("inbox-count")).toHaveCount(0);
  await expect(page).toHaveTitle(/^[^(].* – Palaver$/);
  await expect(page.getByText("Nothing waits for you.")).toBeVisible();
  // The chat showing that conversation hears the answer and its reply.
  await expect(new AskCard(page).summaries()).toHaveText(["✓ You chose: Starter"], { timeout: 5_000 });
  await expect(chat.assistantMessages().last()).toHaveText("Starter it is.");
  expect(chat.consoleErrors).toEqual([]);
});
