import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("approvals ticked in the inbox are decided together, and the one left is decided on its own", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  for (const word of ["first", "second", "third"]) {
    await chat.open("/");
    await chat.sendMessage(`Batch: make the ${word} folder`);
    await expect(ask.card).toBeVisible();
  }

  const inbox = page.getByTestId("inbox");
  await inbox.locator("summary").click();
  const items = inbox.getByTestId("inbox-item");
  await expect(items).toHaveCount(3);
  await expect(inbox.getByTestId("inbox-approve-ticked")).toHaveCount(0);
  // Newest first: the third and the second conversations' approvals.
  await items.nth(0).getByTestId("inbox-tick").check();
  await items.nth(1).getByTestId("inbox-tick").check();
  await expect(inbox.getByText("2 ticked")).toBeVisible();
  await inbox.getByTestId("inbox-approve-ticked").click();
  await expect(inbox.getByTestId("inbox-outcome")).toHaveText("Approved 2.");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText("first folder");
  // The conversation on screen resumed with its answer, as after any answer.
  await expect(chat.assistantMessages().last()).toHaveText("Made the third folder.");

  await items.first().getByTestId("inbox-button-deny").click();
  await expect(items).toHaveCount(0);
  await expect(inbox.getByText("Nothing waits for you.")).toBeVisible();
  expect(chat.consoleErrors).toEqual([]);
});
