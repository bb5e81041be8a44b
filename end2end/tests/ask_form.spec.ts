import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a form is filled in with the keyboard alone and sends typed values", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Invoice details please");
  await expect(ask.submit).toBeDisabled();

  await ask.card.getByLabel("Company name").focus();
  await page.keyboard.type("Acme");
  await page.keyboard.press("Tab");
  await page.keyboard.type("12");
  await expect(ask.submit).toBeEnabled();

  // The date control takes several Tab stops of its own (one per segment): go to the switch.
  await ask.card.getByRole("switch", { name: "Email me the invoice" }).focus();
  await page.keyboard.press("Space"); // the switch: off
  await page.keyboard.press("Tab");
  await expect(ask.submit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chat.assistantMessages().last()).toHaveText("Invoice details saved.");
  await expect(ask.summaries()).toHaveText(["✓ You sent the form (3 fields)"]);

  const answer = lastRequestOf("Invoice details please").messages.find((message: any) => message.role === "tool");
  expect(answer.result.content.values).toEqual({ company: "Acme", seats: 12, notify: false });
});

test("a form value out of range shows its error under the field", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Invoice, out of range");
  await ask.card.getByLabel("Company name").fill("Acme");
  await ask.card.getByLabel("Seats").fill("501");
  await expect(ask.submit).toBeDisabled();
  await expect(page.getByTestId("form-field-seats").getByTestId("ask-errors")).toHaveText(
    "Seats can be at most 500.",
  );
});
