import { expect, test, type Locator, type Page } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";
import { seedCompletedTodo } from "./fixtures/database";

/** Presses Tab until `target` has the focus: the keyboard's way there, never a click. */
async function tabTo(page: Page, target: Locator, most = 40) {
  for (let step = 0; step < most; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

async function askFor(page: Page, message: string, before?: (username: string) => void) {
  const username = await signUpFreshUser(page);
  before?.(username);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.composer.fill(message);
  await chat.composer.press("Enter");
  await expect(ask.card).toBeVisible();
  // A screen reader hears the question, and the way to it; the focus stays in the box.
  await expect(page.getByTestId("ask-announcer")).toHaveText(/^Palaver asks: \S.* Press the up arrow in the message box to answer\.$/);
  await expect(chat.composer).toBeFocused();
  await expect(page.getByTestId("composer-hint")).toBeVisible();
  await chat.composer.press("ArrowUp");
  await expect(ask.card).toBeFocused();
  return { chat, ask };
}

test("a card that arrives while the person types never takes the focus; up arrow reaches it, Escape goes back", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.composer.fill("Keyboard: ask me slowly");
  await chat.composer.press("Enter");
  // Typing goes on while the card streams in and appears.
  await page.keyboard.type("and one more thing");
  await expect(ask.card).toBeVisible();
  await page.keyboard.type(", still typing");
  await expect(chat.composer).toBeFocused();
  await expect(chat.composer).toHaveValue("and one more thing, still typing");
  // With text before the caret, up arrow moves in the text; at the start it reaches the card.
  await expect(page.getByTestId("composer-hint")).toBeVisible();
  await chat.composer.press("Home");
  await chat.composer.press("ArrowUp");
  await expect(ask.card).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(chat.composer).toBeFocused();
  await expect(chat.composer).toHaveValue("and one more thing, still typing");
});

test("a choice ask is answered with the keyboard alone, and its ending is announced", async ({ page }) => {
  const { chat, ask } = await askFor(page, "Keyboard: pick a plan");
  await tabTo(page, ask.button("option:team"));
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Done. Your team is on the Team plan.");
  await expect(page.getByTestId("ask-announcer")).toHaveText(/^The question has ended: \S/);
});

test("an approval is denied with the keyboard alone", async ({ page }) => {
  const { chat, ask } = await askFor(page, "Keyboard: clean up", (username) => seedCompletedTodo(username));
  await tabTo(page, ask.button("deny"));
  await page.keyboard.press("Space");
  await expect(chat.assistantMessages().last()).toHaveText("Kept them.");
});

test("a markdown draft is edited and sent with the keyboard alone", async ({ page }) => {
  const { chat, ask } = await askFor(page, "Keyboard: edit the draft");
  await tabTo(page, ask.card.getByLabel("Draft"));
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await tabTo(page, ask.submit);
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Announcement ready.");
});

test("a question set is answered with the keyboard alone", async ({ page }) => {
  const { chat, ask } = await askFor(page, "Keyboard: logo questions");
  await tabTo(page, ask.card.getByTestId("ask-question-q1").getByRole("radio").first());
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Space");
  await tabTo(page, ask.card.getByTestId("ask-question-q2").getByRole("checkbox", { name: "Signage" }));
  await page.keyboard.press("Space");
  await expect(ask.submit).toBeEnabled();
  await tabTo(page, ask.submit);
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Sketching it now.");
});

test("a files ask is answered with the keyboard alone: the picker opens from the keyboard", async ({ page }) => {
  const { chat, ask } = await askFor(page, "Keyboard: receipts");
  await tabTo(page, ask.card.getByTestId("ask-file-input"));
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Space");
  await (await chooser).setFiles([{ name: "totals.csv", mimeType: "text/csv", buffer: Buffer.from("item,total\nlunch,12\n") }]);
  await expect(ask.card.getByRole("listitem")).toHaveCount(1);
  await tabTo(page, ask.submit);
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Receipts received.");
});
