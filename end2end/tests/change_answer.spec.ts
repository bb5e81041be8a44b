import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an answer can be changed while only its reply came after it", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Change the plan I picked");

  await ask.button("option:solo").click();
  await expect(chat.assistantMessages().last()).toHaveText("Solo it is.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Solo"]);

  const change = page.getByTestId("ask-change");
  await expect(change).toHaveText("Change answer");
  await change.click();
  // The card waits again, and the reply to the old answer is gone.
  await expect(ask.card).toBeVisible();
  await expect(ask.summaries()).toHaveCount(0);
  await expect(chat.assistantMessages()).toHaveCount(0);

  await ask.button("option:team").click();
  await expect(chat.assistantMessages().last()).toHaveText("Team it is.");
  await expect(ask.summaries()).toHaveText(["✓ You chose: Team"]);

  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(ask.summaries()).toHaveText(["✓ You chose: Team"]);
  await expect(chat.assistantMessages()).toHaveText(["Team it is."]);
  expect(chat.consoleErrors).toEqual([]);
});
