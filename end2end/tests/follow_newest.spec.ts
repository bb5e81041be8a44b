import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test.use({ viewport: { width: 1000, height: 600 } });

test("the transcript follows a streaming reply until the reader scrolls up, then a pill leads back", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A long reply to scroll");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Paragraph 24.");
  // The reply goes on streaming: whichever paragraph is newest is the one on the screen.
  await expect(reply.locator("p").last()).toBeInViewport();

  await chat.transcript.evaluate((element) => element.scrollTo({ top: 0 }));
  const pill = page.getByTestId("new-messages");
  await expect(pill).toBeVisible();
  await expect(pill).toHaveText("New messages ↓");
  await expect(chat.userMessages().first()).toBeInViewport();

  await pill.click();
  await expect(pill).toBeHidden();
  await chat.waitForReply();
  await expect(reply.getByText("Paragraph 96.")).toBeInViewport();
  expect(chat.consoleErrors).toEqual([]);
});
