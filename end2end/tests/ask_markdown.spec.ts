import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a markdown draft is edited with a live preview and sent back", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Edit my announcement");
  const editor = ask.card.getByLabel("Draft");
  await expect(editor).toHaveValue("# We're live");
  await expect(ask.card.getByLabel("Preview").getByRole("heading")).toHaveText("We're live");

  const edited = "# We're live\n\nToday we **launched**.";
  await editor.fill(edited);
  await expect(ask.card.getByLabel("Preview").locator("strong")).toHaveText("launched");
  await expect(ask.card.getByText(`${edited.length} / 200 characters`)).toBeVisible();
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Announcement ready.");
  await expect(ask.summaries().first()).toContainText(`You edited the draft (${edited.length} characters)`);
});
