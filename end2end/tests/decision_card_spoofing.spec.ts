import { expect, test, type Locator } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { expectNoSeriousViolations } from "./fixtures/axe";
import { ChatPage } from "./fixtures/chat_page";

// Text on a decision card cannot pass for something else: a right-to-left override is shown,
// not obeyed; a line break in a value stays inside its row; and Palaver's own lines sit in a
// strip of their own, apart from what the model or a server wrote.

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "the element is laid out").not.toBeNull();
  return found!;
}

/** The computed background of an element, to tell Palaver's strip from the server's text. */
function background(locator: Locator) {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

/** Each argument of an approval: its own row, key → value, the override and the line break shown. */
async function expectSpoofedArgumentsShownAsTheyAre(place: Locator) {
  const rows = place.getByTestId("call-argument");
  await expect(rows).toHaveCount(2); // the line break in `content` made no third row
  await expect(place.getByTestId("call-argument-key")).toHaveText(["path", "content"]);
  const values = place.getByTestId("call-argument-value");
  await expect(values.nth(0)).toHaveText('"/home/alice/⟨U+202E⟩cod.stnemucod/"');
  await expect(values.nth(0).getByTestId("shown-char")).toHaveText("⟨U+202E⟩");
  await expect(values.nth(1)).toHaveText('"Dear Bob,⟨U+000A⟩path: /home/alice/documents.doc"');
  await expect(values.nth(1).getByTestId("shown-char")).toHaveText("⟨U+000A⟩");
  for (const value of await values.all()) {
    const text = (await value.textContent()) ?? "";
    expect(text, "no override or line break reaches the page").not.toMatch(/[\u202a-\u202e\u2066-\u2069\n]/);
  }
}

test("a bidi override or a line break in an argument cannot disguise an approval", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Write to a spoofed path");

  const strip = ask.card.getByTestId("palaver-strip");
  await expect(strip.getByTestId("approval-tool")).toHaveText("Approval needed for Write File (files__write_file)");
  await expect(strip.getByTestId("palaver-server")).toHaveText("On the MCP server files");
  await expect(strip).toContainText("Palaver");
  await expectSpoofedArgumentsShownAsTheyAre(ask.card);

  // Layout: the rows stack, and the fake "path:" line stays on the content row, beside its key.
  const [pathRow, contentRow] = await ask.card.getByTestId("call-argument").all();
  const [pathBox, contentBox] = [await box(pathRow), await box(contentRow)];
  expect(pathBox.y + pathBox.height).toBeLessThanOrEqual(contentBox.y + 1);
  const contentValue = await box(contentRow.getByTestId("call-argument-value"));
  const contentKey = await box(contentRow.getByTestId("call-argument-key"));
  expect(contentValue.y).toBeGreaterThanOrEqual(contentBox.y - 1);
  expect(contentKey.x + contentKey.width).toBeLessThanOrEqual(contentValue.x + 1);
  const newline = await box(contentRow.getByTestId("shown-char"));
  expect(Math.abs(newline.y - contentKey.y), "the line break's marker sits on the row's first line").toBeLessThan(
    contentKey.height,
  );
  // Palaver's strip is above everything the model or the server wrote, and looks apart.
  const prompt = ask.card.locator(".ask-card__prompt");
  expect((await box(strip)).y + (await box(strip)).height).toBeLessThanOrEqual((await box(prompt)).y + 1);
  expect(await background(strip)).not.toBe(await background(ask.card));
  await expectNoSeriousViolations(page, "an approval with its arguments");

  // The same rows on the watch and in the inbox.
  const watch = await context.newPage();
  await watch.goto("/watch");
  const watchCard = watch.getByTestId("watch-card");
  await expect(watchCard.getByTestId("approval-tool")).toHaveText("Approval needed for Write File (files__write_file)");
  await expectSpoofedArgumentsShownAsTheyAre(watchCard);
  await watch.close();
  await page.getByTestId("inbox").locator("summary").click();
  await expectSpoofedArgumentsShownAsTheyAre(page.getByTestId("inbox-item"));
  await page.getByTestId("inbox").locator("summary").click();

  await ask.button("deny").click();
  await expect(chat.assistantMessages().last()).toHaveText("Nothing was written.");
});

test("a server's message cannot pass for Palaver's line naming a link's host", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Open a spoofed link");

  const strip = ask.card.getByTestId("palaver-strip");
  await expect(strip.getByTestId("palaver-link-host")).toHaveText("The link opens evil.example");
  await expect(strip.getByTestId("palaver-server")).toHaveText("Asked by the MCP server everything");
  await expect(strip).not.toContainText("accounts.google.com");
  const prompt = ask.card.locator(".ask-card__prompt");
  await expect(prompt).toHaveText("Sign in to go on. The link opens accounts.google.com.");
  await expect(prompt).not.toContainText("evil.example");
  // The server's words sit below Palaver's strip, in the card's own style, not the strip's.
  expect((await box(strip)).y + (await box(strip)).height).toBeLessThanOrEqual((await box(prompt)).y + 1);
  expect(await background(strip)).not.toBe(await background(prompt));

  await ask.button("deny").click();
  await expect(chat.assistantMessages().last()).toHaveText("The link was not opened.");
});
