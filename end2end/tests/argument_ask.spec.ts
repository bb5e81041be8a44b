import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

const HELP = "When to remind you, as HH:mm on a 24-hour clock (such as 09:30)";

test("a tool's time is asked of the person, checked before Submit in their words, then used", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Remind me to call the dentist");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Values needed by Schedule reminder");
  await expect(ask.card).toContainText("Before the next step can run, a few values are needed.");
  const time = ask.card.getByLabel("Time");
  await expect(ask.card.getByTestId("form-field-f1")).toContainText(HELP);
  // The model's own guess is neither shown nor filled in.
  await expect(time).toHaveValue("");
  for (const unfit of ["25:00", "9am"]) {
    await time.fill(unfit);
    await expect(ask.submit).toBeDisabled();
    await expect(ask.card.getByTestId("form-field-f1").getByTestId("ask-errors")).toHaveText(
      `Time is not written the way it needs to be: ${HELP}`,
    );
  }
  await time.fill("09:30");
  await expect(ask.card.getByTestId("form-field-f1").getByTestId("ask-errors")).toHaveCount(0);
  await ask.submit.click();

  await expect(chat.assistantMessages().last()).toHaveText("Reminder set.");
  const request = lastRequestOf("Remind me to call the dentist");
  const result = request.messages.find((message: any) => message.role === "tool");
  expect(result.result.reminder).toMatchObject({ title: "Call the dentist", time: "09:30" });
  expect(JSON.stringify(request.messages)).not.toContain("08:00");
});

test("an unfit value sent past the card is refused at its field and the same question keeps waiting", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Remind me to water the plants");
  await ask.card.getByLabel("Time").fill("07:1");
  const historyId = new URL(page.url()).searchParams.get("c")!;
  const headers = { origin: new URL(page.url()).origin };
  const history = (await (await page.request.get(`/gpt/histories/${historyId}`)).json()).data;
  const toolCallId = history.pendingAsk.toolCallId;
  expect(history.pendingAsk.fieldPatterns).toEqual([{ field: "f1", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$" }]);

  const refused = await page.request.post("/gpt/prompt", {
    headers,
    data: { historyId, askResponse: { toolCallId, action: "accept", content: { values: { f1: "25:00" } } } },
  });
  expect(refused.status()).toBe(400);
  const body = await refused.json();
  expect(body.fields.map((field: any) => [field.path, field.code])).toEqual([["content.values.f1", "INVALID_FORMAT"]]);

  // What was typed is still on the card, which still answers the same question.
  await expect(ask.card.getByLabel("Time")).toHaveValue("07:1");
  await ask.card.getByLabel("Time").fill("07:15");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Reminder set.");
  const answered = (await (await page.request.get(`/gpt/histories/${historyId}`)).json()).data;
  expect(answered.pendingAsk).toBeUndefined();
});
