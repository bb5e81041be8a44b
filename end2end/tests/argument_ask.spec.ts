import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a tool's time is asked of the person, asked again when it does not fit, then used", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Remind me to call the dentist");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Values needed by scheduleReminder");
  await expect(ask.card).toContainText("Before the next step can run, a few values are needed.");
  const time = ask.card.getByLabel("When to remind you, as HH:mm on a 24-hour clock (such as 09:30)");
  // The model's own guess is neither shown nor filled in.
  await expect(time).toHaveValue("");
  await time.fill("half past nine");
  await ask.submit.click();

  await expect(ask.card).toContainText("One answer did not fit what the tool accepts. Please answer that field again.");
  const again = ask.card.getByLabel("When to remind you, as HH:mm on a 24-hour clock (such as 09:30)");
  await expect(again).toHaveValue("");
  await again.fill("09:30");
  await ask.submit.click();

  await expect(chat.assistantMessages().last()).toHaveText("Reminder set.");
  const request = lastRequestOf("Remind me to call the dentist");
  const result = request.messages.find((message: any) => message.role === "tool");
  expect(result.result.reminder).toMatchObject({ title: "Call the dentist", time: "09:30" });
  expect(JSON.stringify(request.messages)).not.toContain("08:00");
});
