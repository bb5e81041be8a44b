import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";
import { seedCompletedTodo } from "./fixtures/database";

test("deleting with no completed todos has nothing to approve", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Clean up, with nothing to clean");
  await expect(chat.assistantMessages().last()).toHaveText("Nothing was there to delete.");
  await expect(new AskCard(page).card).toHaveCount(0);
  await page.getByTestId("tool-line").getByText("Used Delete completed todos").click();
  await expect(page.getByTestId("tool-line")).toContainText('"deleted": 0');
});

test("approving a guarded tool runs it", async ({ page }) => {
  seedCompletedTodo(await signUpFreshUser(page));
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Clean up my todos");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Approval needed for Delete completed todos (deleteCompletedTodos)");
  await expect(ask.button("approve")).toHaveText("Delete");
  await expect(ask.button("approve")).toHaveClass(/ask-button--destructive/);
  // What the tool's check found the call will do, in Palaver's own strip.
  await expect(ask.card.getByTestId("palaver-impact-summary")).toHaveText(
    "What it does: Deletes 1 completed todo: “Done already”.",
  );
  await expect(ask.card.getByTestId("palaver-impact-undo")).toHaveText("It cannot be undone.");

  await ask.button("approve").click();
  await expect(chat.assistantMessages().last()).toHaveText("All clean.");
  await expect(ask.summaries()).toHaveText(["✓ You confirmed: Delete"]);
  await page.getByTestId("tool-line").getByText("Used Delete completed todos").click();
  await expect(page.getByTestId("tool-line")).toContainText('"deleted": 1');
});

test("denying a guarded tool never runs it", async ({ page }) => {
  seedCompletedTodo(await signUpFreshUser(page));
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Clean up, but no");
  await ask.button("deny").click();
  await expect(chat.assistantMessages().last()).toHaveText("Kept them.");
  await expect(ask.summaries()).toHaveText(["✓ You declined: Keep them"]);
  await page.getByTestId("tool-line").getByText("Used Delete completed todos").click();
  await expect(page.getByTestId("tool-line")).toContainText('"approved": false');
  await expect(page.getByTestId("tool-line")).not.toContainText("deleted");
});

test("each decision shows in the audit trail in Settings", async ({ page }) => {
  seedCompletedTodo(await signUpFreshUser(page));
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Clean up, and keep a record");
  await ask.button("deny").click();
  await expect(chat.assistantMessages().last()).toHaveText("Kept them.");

  await page.goto("/settings");
  const entry = page.getByTestId("audit").getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("approval of Delete completed todos");
  await expect(entry).toContainText("arguments sha256:44136fa355b3");
  await expect(entry).toContainText("denied, once");
  await expect(entry.getByRole("cell").nth(3)).toHaveText(/ · web$/);
});

test("Always allow runs later calls without a card, until it is revoked in Settings", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Make folders, and keep allowing it");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Approval needed for Create Directory (files__create_directory)");
  await expect(ask.button("approve")).toHaveText("Allow once");
  await expect(ask.card.getByTestId("ask-grant-conversation")).toHaveText("Allow in this conversation");
  await expect(ask.card.getByTestId("ask-grant-always")).toHaveText("Always allow Create Directory");
  await ask.card.getByTestId("ask-grant-always").click();
  await expect(chat.assistantMessages().last()).toHaveText("Made the first folder.");
  const conversation = page.url();

  await chat.sendMessage("And another");
  await expect(chat.assistantMessages().last()).toHaveText("Made the second folder.");
  await expect(ask.card).toHaveCount(0);
  await expect(page.getByTestId("tool-line").last().locator("summary")).toHaveText(
    "Ran Create directory — always allowed",
  );

  await page.goto("/settings");
  // Revoke works once the page is live.
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const grant = page.getByTestId("grants").getByTestId("grant");
  await expect(grant).toHaveCount(1);
  await expect(grant).toContainText(
    "Create directory (files__create_directory) with any arguments, in every conversation, until revoked — used once",
  );
  await grant.getByRole("button", { name: "Revoke files__create_directory" }).click();
  await expect(page.getByText("No tools are allowed without asking.")).toBeVisible();

  await chat.open(new URL(conversation).pathname + new URL(conversation).search);
  await chat.sendMessage("One more");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Approval needed for Create Directory (files__create_directory)");
});

test("a destructive approval offers no grant", async ({ page }) => {
  seedCompletedTodo(await signUpFreshUser(page));
  const ask = new AskCard(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A destructive clean-up, with no grants");
  await expect(ask.button("approve")).toBeVisible();
  await expect(ask.card.getByTestId("ask-grant-always")).toHaveCount(0);
  await expect(ask.card.getByTestId("ask-grant-conversation")).toHaveCount(0);
});
