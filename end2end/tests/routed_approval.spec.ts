import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";
import { routeApprovals } from "./fixtures/database";

test("an approval routed to someone else waits in their inbox, and their answer runs the call", async ({
  page,
  browser,
}) => {
  const approverContext = await browser.newContext();
  const approverPage = await approverContext.newPage();
  const approver = await signUpFreshUser(approverPage);
  const requester = await signUpFreshUser(page);
  routeApprovals("files__move_file", approver);

  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Move a file, approved by someone else");
  // The requester's card says whom it waits for, and offers no way to answer it.
  await expect(ask.card.getByTestId("ask-routed")).toHaveText(`Waiting for ${approver} to approve or deny.`);
  await expect(ask.button("approve")).toHaveCount(0);
  await expect(ask.card.getByTestId("ask-grant-always")).toHaveCount(0);
  // Nor does their inbox offer buttons for it.
  const ownInbox = page.getByTestId("inbox");
  await ownInbox.locator("summary").click();
  await expect(ownInbox.getByTestId("inbox-waiting-for")).toHaveText(`Waiting for ${approver} to approve or deny.`);
  await expect(ownInbox.getByTestId("inbox-button-approve")).toHaveCount(0);
  await ownInbox.locator("summary").click();

  await approverPage.goto("/");
  await approverPage.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const inbox = approverPage.getByTestId("inbox");
  await expect(inbox.getByTestId("inbox-count")).toHaveText("1");
  await inbox.locator("summary").click();
  const item = inbox.getByTestId("inbox-routed-item");
  await expect(item).toContainText(`${requester} asks:`);
  await expect(item).toContainText("In “Move a file, approved by someone else”");
  await expect(item).toContainText("routed-e2e/a.txt");
  await item.getByTestId("inbox-routed-approve").click();
  await expect(inbox.getByTestId("inbox-routed-told")).toHaveText("Approved: the call runs.");
  await expect(inbox.getByTestId("inbox-routed-item")).toHaveCount(0);

  // The requester's conversation goes on by itself.
  await expect(chat.assistantMessages().last()).toHaveText("Done, with their approval.");
  await approverContext.close();
});
