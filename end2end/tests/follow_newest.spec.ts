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

// The page's own scroll to the end is reported after the next content is laid out: that must
// not read as the reader leaving the end (it did on a loaded machine, `chat/follow.rs`).
test("sending from up the page shows one's own message, and the pill never covers the transcript", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A long reply, then one more");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toContainText("Paragraph 96.");

  await chat.transcript.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(chat.userMessages().first()).toBeInViewport();
  await chat.sendMessage("And one more thing");
  await expect(chat.userMessages().last()).toHaveText("And one more thing");
  await expect(chat.userMessages().last()).toBeInViewport();
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("A short answer at the end.");
  await expect(chat.assistantMessages().last()).toBeInViewport();
});

test("the pill takes its own room below the transcript, so it never covers a card's controls", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A long reply to scroll, pill placement");
  await expect(chat.assistantMessages().last()).toContainText("Paragraph 12.");
  await chat.transcript.evaluate((element) => element.scrollTo({ top: 0 }));
  const pill = page.getByTestId("new-messages");
  await expect(pill).toBeVisible();
  const [pillBox, transcriptBox] = [await pill.boundingBox(), await chat.transcript.boundingBox()];
  expect(pillBox!.y).toBeGreaterThanOrEqual(transcriptBox!.y + transcriptBox!.height - 1);
});
