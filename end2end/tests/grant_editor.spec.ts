import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a grant by pattern: proposed from the call, edited in words, covering only what it says, listed in Settings", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Make shared folders, within a pattern");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText(
    "Approval needed for Create Directory (files__create_directory)",
  );
  // The server's annotations, in words, as the server's word.
  await expect(ask.card.getByTestId("palaver-tool-hints")).toHaveText(
    "The server describes it as: adds without deleting, the same when run twice, works only within its own system",
  );

  // The editor proposes the call's folder, here, for an hour.
  const editor = ask.card.getByTestId("grant-editor");
  await editor.locator("summary").click();
  const words = editor.getByTestId("grant-words");
  await expect(words).toHaveText(
    "Allows Create Directory with path in grants-e2e/shared/ or below, in this conversation, for 1 hour.",
  );

  // A folder that climbs out is refused before it is sent.
  const folder = editor.getByTestId("grant-pattern-text");
  await folder.fill("grants-e2e/../");
  await expect(editor.getByTestId("grant-problem")).toContainText("is not a plain folder");
  await expect(editor.getByTestId("ask-grant-custom")).toBeDisabled();
  // A folder the call is not in would not cover it.
  await folder.fill("grants-e2e/private/");
  await expect(editor.getByTestId("grant-problem")).toHaveText("The grant must cover the call you are approving.");
  await folder.fill("grants-e2e/shared/");
  await expect(editor.getByTestId("grant-problem")).toHaveCount(0);

  // Exactly this path, then back to the folder; ten minutes, every conversation.
  const path = editor.getByTestId("grant-argument-path").locator("select");
  await path.selectOption({ label: 'path exactly “grants-e2e/shared/a”' });
  await expect(words).toContainText("with path exactly “grants-e2e/shared/a”,");
  await path.selectOption({ index: 0 });
  await editor.getByTestId("grant-lifetime").selectOption({ label: "for 10 minutes" });
  await editor.getByTestId("grant-scope").selectOption("always");
  await expect(words).toHaveText(
    "Allows Create Directory with path in grants-e2e/shared/ or below, in every conversation, for 10 minutes.",
  );
  await editor.getByTestId("grant-scope").selectOption("conversation");
  await editor.getByTestId("ask-grant-custom").click();
  await expect(chat.assistantMessages().last()).toHaveText("Made the first shared folder.");

  // In the folder: it runs without a card, and says which grant ran it.
  await chat.sendMessage("And a second shared one");
  await expect(chat.assistantMessages().last()).toHaveText("Made the second shared folder.");
  await expect(ask.card).toHaveCount(0);
  await expect(page.getByTestId("tool-line").last().locator("summary")).toHaveText(
    "Ran Create directory — allowed in this conversation (path in grants-e2e/shared/ or below)",
  );

  // Outside it: asked again.
  await chat.sendMessage("And one outside");
  await expect(ask.card.getByTestId("approval-tool")).toBeVisible();

  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const grant = page.getByTestId("grants").getByTestId("grant");
  await expect(grant).toHaveCount(1);
  await expect(grant.getByTestId("grant-covers")).toHaveText("path in grants-e2e/shared/ or below");
  await expect(grant).toContainText("until ");
  await expect(grant.getByTestId("grant-uses")).toHaveText("used once");
  await grant.getByTestId("grant-relife").selectOption({ label: "until I revoke it" });
  await expect(grant).toContainText("until revoked");
  // Narrowed in Settings: a folder further down.
  await grant.getByTestId("grant-edit").locator("summary").click();
  await grant.getByTestId("grant-edit").getByTestId("grant-pattern-text").fill("grants-e2e/shared/deeper/");
  await expect(grant.getByTestId("grant-edit-words")).toHaveText("path in grants-e2e/shared/deeper/ or below");
  await grant.getByTestId("grant-edit-save").click();
  await expect(grant.getByTestId("grant-covers")).toHaveText("path in grants-e2e/shared/deeper/ or below");
  await grant.getByRole("button", { name: "Revoke files__create_directory" }).click();
  await expect(page.getByText("No tools are allowed without asking.")).toBeVisible();
});
