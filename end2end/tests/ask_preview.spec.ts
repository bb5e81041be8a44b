import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an ask takes shape while the model writes it, then the real card replaces it", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Ask me slowly");
  const preview = page.getByTestId("ask-preview");
  await expect(preview).toContainText("Preparing a question…");
  await expect(preview.locator(".ask-card__title")).toHaveText("Choose a plan");
  await expect(preview.locator(".ask-card__prompt")).toHaveText("Which plan should I set up?");
  await expect(preview.locator("li")).toHaveText(["Solo"]);
  await expect(preview.locator("li")).toHaveText(["Solo", "Team"]);
  // Inert: nothing in it can be pressed.
  await expect(preview.locator("button, input")).toHaveCount(0);

  await expect(ask.button("option:team")).toBeVisible();
  await expect(preview).toHaveCount(0);
  await ask.button("option:team").click();
  await expect(chat.assistantMessages().last()).toHaveText("Team it is.");
  expect(chat.consoleErrors).toEqual([]);
});
