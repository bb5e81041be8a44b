import { expect, test, type Locator } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a question set is answered in one card: one pick, several picks and an answer of one's own", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Design the logo with me");
  const shade = ask.card.getByTestId("ask-question-q1");
  const places = ask.card.getByTestId("ask-question-q2");
  await expect(shade).toContainText("Question 1 of 2");
  await expect(ask.submit).toBeDisabled();

  await shade.getByRole("radio", { name: "#b49c54" }).check();
  await expect(ask.submit).toBeDisabled();
  await places.getByRole("checkbox", { name: "Signage" }).check();
  await places.getByRole("textbox", { name: "Your own answer" }).fill("Embroidery");
  await expect(ask.submit).toBeEnabled();
  await ask.submit.click();

  await expect(chat.assistantMessages().last()).toHaveText("Sketching it now.");
  await expect(ask.summaries()).toHaveText([
    "✓ You answered 2 questions: Which shade of gold? #b49c54; Where will it appear? Signage, your own: Embroidery",
  ]);
  const told = lastRequestOf("Design the logo with me").messages.find((message: any) => message.role === "tool");
  expect(told.result).toEqual({
    action: "accept",
    content: {
      answers: ["Which shade of gold? — #b49c54", 'Where will it appear? — Signage, their own answer "Embroidery"'],
    },
  });
});

/** The horizontal centre of an element. */
async function centre(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!.x + box!.width / 2;
}

test("an Arabic question set runs right to left in Arabic, with left-to-right answers in their place", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Arabic shade question");
  await expect(ask.card).toHaveAttribute("dir", "rtl");
  await expect(ask.card).toHaveAttribute("lang", "ar");
  await expect(ask.submit).toHaveText("إرسال");
  await expect(ask.card.getByTestId("ask-skip")).toHaveText("تخطٍّ");

  // Right to left: the question starts at the card's right edge, and each radio button stands
  // to the right of its answer.
  const cardBox = (await ask.card.boundingBox())!;
  const title = (await ask.card.locator(".ask-question__title").boundingBox())!;
  expect(cardBox.x + cardBox.width - (title.x + title.width)).toBeLessThan(cardBox.width / 4);
  const hex = ask.card.getByRole("radio", { name: "#b49c54" });
  const hexLabel = ask.card.locator("label.ask-option", { has: page.getByRole("radio", { name: "#b49c54" }) }).locator("bdi");
  expect(await centre(hex)).toBeGreaterThan(await centre(hexLabel));
  // The hex colour itself still reads left to right: "#" is drawn left of its last digit.
  const [hashX, lastX] = await hexLabel.evaluate((bdi) => {
    const text = bdi.firstChild!;
    const at = (index: number) => {
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect().x;
    };
    return [at(0), at((text.textContent ?? "").length - 1)];
  });
  expect(hashX).toBeLessThan(lastX);
  // A mixed answer keeps its number at the start, which is the right in Arabic.
  const mixed = ask.card.locator("label.ask-option", { has: page.getByRole("radio", { name: "12 لونًا" }) }).locator("bdi");
  const [numberX, wordX] = await mixed.evaluate((bdi) => {
    const text = bdi.firstChild!;
    const rect = (start: number, end: number) => {
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, end);
      return range.getBoundingClientRect().x;
    };
    return [rect(0, 2), rect(3, (text.textContent ?? "").length)];
  });
  expect(numberX).toBeGreaterThan(wordX);

  await ask.card.getByRole("radio", { name: "#b49c54" }).check();
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("شكرًا.");
  const summary = ask.summaries().first();
  await expect(summary).toHaveAttribute("dir", "rtl");
  await expect(summary).toContainText("#b49c54");
});

test("the watch shows an Arabic question right to left, with Arabic words", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Arabic question for the watch");
  await expect(new AskCard(page).card).toBeVisible();
  await page.goto("/watch");
  const card = page.getByTestId("watch-card");
  await expect(card).toHaveAttribute("dir", "rtl");
  await expect(card).toContainText("أي درجة من الذهبي؟");
  await expect(page.getByTestId("watch-button-skip")).toHaveText("تخطٍّ");
  await expect(page.getByTestId("watch-button-answer:a1")).toHaveText("#b49c54");
  // The question's text sits against the right edge.
  const [leftGap, rightGap] = await card.locator(".watch__text").evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return [text.left - box.left, box.right - text.right];
  });
  expect(rightGap).toBeLessThan(leftGap);
});

test.describe("a reader whose browser asks for German", () => {
  test.use({ locale: "de-DE" });

  test("an ask that names no language speaks the reader's, on the page and once hydrated", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    await signUpFreshUser(page);
    const chat = new ChatPage(page);
    const ask = new AskCard(page);
    await chat.open();
    await chat.sendMessage("Logo questions for a German reader");
    await expect(ask.submit).toHaveText("Senden");
    await expect(ask.card.getByTestId("ask-skip")).toHaveText("Überspringen");
    await expect(ask.card.getByTestId("ask-question-q1")).toContainText("Frage 1 von 2");
    // The page from the server says the same, so hydration keeps it.
    await page.reload();
    await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
    await expect(page.locator("body")).toHaveAttribute("data-reader-language", "de");
    await expect(ask.submit).toHaveText("Senden");
    await ask.card.getByTestId("ask-question-q1").getByRole("radio", { name: "#d4af37" }).check();
    await ask.card.getByTestId("ask-question-q2").getByRole("checkbox", { name: "Website" }).check();
    await ask.submit.click();
    await expect(ask.summaries()).toHaveText([
      "✓ Du hast 2 Fragen beantwortet: Which shade of gold? #d4af37; Where will it appear? Website",
    ]);
    expect(problems.filter((text) => /hydrat/i.test(text))).toEqual([]);
  });
});
