import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an answer being prepared survives the transcript being rebuilt", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Draft my note");
  await chat.waitForReply();
  const editor = ask.card.getByLabel("Draft");
  await editor.fill("Hello, the note is half written");

  // Another conversation and back: the chat rebuilds the transcript, and the card with it.
  await page.getByRole("link", { name: "New chat" }).click();
  await expect(ask.card).toHaveCount(0);
  await chat.conversations.getByRole("link", { name: "Draft my note" }).click();
  await expect(editor).toHaveValue("Hello, the note is half written");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Note saved.");
  expect(chat.consoleErrors).toEqual([]);
});

test("a long list's search survives the card being rebuilt", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Which country next?");
  await chat.waitForReply();
  await ask.card.getByLabel("Search the options").fill("nor");

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(ask.card).toHaveCount(0);
  await chat.conversations.getByRole("link", { name: "Which country next?" }).click();
  await expect(ask.card.getByLabel("Search the options")).toHaveValue("nor");
  const list = ask.card.getByLabel("Choose one");
  await expect(list.getByRole("option")).toHaveText(["Norway"]);
  await list.selectOption("norway");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Noted.");
  expect(chat.consoleErrors).toEqual([]);
});

test("what was typed, edited or uploaded in a pending card survives a reload, until it is answered", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  const reload = async () => {
    await page.reload();
    await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  };

  await chat.open();
  await chat.sendMessage("Invoice details, then a reload");
  await ask.card.getByLabel("Company name").fill("Acme");
  await ask.card.getByLabel("Seats").fill("501");
  await reload();
  await expect(ask.card.getByLabel("Company name")).toHaveValue("Acme");
  await expect(ask.card.getByLabel("Seats")).toHaveValue("501");
  // The draft's problems are shown again too.
  await expect(page.getByTestId("form-field-seats").getByTestId("ask-errors")).toHaveText("Seats can be at most 500.");
  await ask.card.getByLabel("Seats").fill("12");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Invoice details saved.");
  // The answered card, read back after the turn, lets the draft go (the reply's text can show
  // before that read arrives).
  await expect
    .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("palaver.draft."))))
    .toEqual([]);

  await page.getByRole("link", { name: "New chat" }).click();
  await chat.sendMessage("Edit my announcement, then a reload");
  await ask.card.getByLabel("Draft").fill("# We're live\n\nHalf written");
  await reload();
  await expect(ask.card.getByLabel("Draft")).toHaveValue("# We're live\n\nHalf written");

  await page.getByRole("link", { name: "New chat" }).click();
  await chat.sendMessage("Send me receipts, then a reload");
  await ask.card.getByTestId("ask-file-input").setInputFiles([
    { name: "totals.csv", mimeType: "text/csv", buffer: Buffer.from("item,total\nlunch,12\n") },
  ]);
  await expect(ask.card.getByRole("listitem")).toHaveCount(1);
  // A file still uploading is not yet part of the draft a reload keeps: wait until it is in it.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.entries(sessionStorage).some(([key, draft]) => key.startsWith("palaver.draft.") && draft.includes("totals.csv")),
      ),
    )
    .toBe(true);
  await reload();
  await expect(ask.card.getByRole("listitem")).toHaveText([/totals\.csv/]);
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Receipts received.");
  await expect(ask.summaries()).toHaveText(["✓ You sent 1 file: totals.csv"]);
  expect(chat.consoleErrors).toEqual([]);
});

test("signing out forgets the tab's drafts: the next person to sign in here does not find them", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Draft a note, then sign out");
  await ask.card.getByLabel("Draft").fill("Private: half written");
  const drafts = () =>
    page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("palaver.draft.")));
  await expect.poll(drafts).toHaveLength(1);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await drafts()).toEqual([]);
  expect(chat.consoleErrors).toEqual([]);
});
