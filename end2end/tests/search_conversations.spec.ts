import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("conversations are searched by what was said in them, / goes to the search and Escape leaves it", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Tell me about sourdough");
  await expect(chat.assistantMessages().last()).toHaveText("A starter is flour and water, fed daily.");
  await chat.conversations.getByTestId("new-chat").click();
  await chat.sendMessage("Ferry timetable please");
  await expect(chat.assistantMessages().last()).toHaveText("Boats leave every hour.");
  const links = chat.conversations.locator(".conversations__list li");
  await expect(links).toHaveCount(2);
  // Grouped by the reader's day, each title in full in its tooltip.
  await expect(chat.conversations.locator(".conversations__group")).toHaveText(["Today"]);
  await expect(chat.conversations.getByRole("link", { name: /ferry/i })).toHaveAttribute("title", /ferry/i);

  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  const search = page.getByTestId("conversation-search");
  await expect(search).toBeFocused();
  await page.keyboard.type("STARTER");
  await expect(links).toHaveCount(1);
  await expect(links.first()).toContainText(/sourdough/i);
  await search.fill("boats");
  await expect(links).toHaveCount(1);
  await expect(links.first()).toContainText(/ferry/i);
  // Why it was found: the words around the match, the match marked.
  const snippet = links.first().getByTestId("conversation-snippet");
  await expect(snippet).toHaveText("Boats leave every hour.");
  await expect(snippet.locator("mark")).toHaveText("Boats");
  await search.fill("nothing like it");
  await expect(links).toHaveCount(0);
  await expect(page.getByTestId("no-match")).toHaveText("No conversations match “nothing like it”.");
  await search.fill("");
  await expect(links).toHaveCount(2);
  await expect(page.getByTestId("no-match")).toHaveCount(0);

  await search.fill("boats");
  await expect(links).toHaveCount(1);
  await search.press("Escape");
  await expect(search).toHaveValue("");
  await expect(links).toHaveCount(2);
  await expect(chat.composer).toBeFocused();
});
