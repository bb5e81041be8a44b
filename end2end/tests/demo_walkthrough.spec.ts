import { expect, test } from "@playwright/test";
import { demoPort } from "../playwright.config";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// The first run as the README tells it: the keyless demo agent as scripts/run.sh starts it
// (blocks on, html blocks on). Its replies stream word by word, so they get more time.
test.use({ baseURL: `http://127.0.0.1:${demoPort}` });

test("the demo agent's replies show as they should: prose as markdown, documents as blocks", async ({ page }) => {
  test.slow(); // the demo streams word by word: six replies, two of them whole documents
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();

  // The help text is markdown a YAML reader would reject (`**` reads as an alias): it is prose.
  await chat.sendMessage("help");
  await chat.waitForReply(30_000);
  const help = chat.assistantMessages().last();
  await expect(help.locator("strong").first()).toHaveText("Palaver demo agent");
  await expect(help.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("markdown");
  await chat.waitForReply(30_000);
  const tour = chat.assistantMessages().last();
  await expect(tour.getByRole("heading", { name: "A heading" })).toBeVisible();
  await expect(tour.getByRole("table")).toBeVisible();
  await expect(tour.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("What is the weather?");
  await chat.waitForReply(30_000);
  await expect(chat.assistantMessages().last()).toContainText("You said:");

  await chat.sendMessage("dashboard");
  await chat.waitForReply(30_000);
  const dashboard = chat.assistantMessages().last();
  await expect(dashboard.getByTestId("table")).toBeVisible();
  await expect(dashboard.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("checklist");
  await chat.waitForReply(30_000);
  await expect(chat.assistantMessages().last().getByTestId("blocks-error")).toHaveCount(0);
  await expect(chat.assistantMessages().last().getByRole("checkbox").first()).toBeVisible();

  expect(chat.consoleErrors).toEqual([]);
});

test("each of the demo agent's asks is answered in the browser", async ({ page }) => {
  // Six asks, each a streamed reply from the demo agent: more than 30 s on a loaded machine.
  test.setTimeout(60_000);
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  const last = () => chat.assistantMessages().last();

  await chat.sendMessage("set up a plan");
  await ask.card.getByRole("button", { name: "Team" }).click();
  await expect(last()).toHaveText("You chose Team. Done!");

  await chat.sendMessage("build a pizza");
  await ask.card.getByRole("checkbox", { name: "Olives" }).check();
  await ask.submit.click();
  await expect(last()).toHaveText("You chose Extra cheese, Mushrooms, Olives. Done!");

  await chat.sendMessage("send the report");
  await ask.card.getByRole("button", { name: "Send it" }).click();
  await expect(last()).toHaveText("Confirmed: I'd go ahead and do it now.");

  await chat.sendMessage("write an announcement");
  await ask.submit.click();
  await expect(last()).toHaveText("Great, the draft goes out as it is.");

  await chat.sendMessage("invoice details");
  await ask.card.getByLabel("Company name").fill("Acme");
  await ask.card.getByLabel("Seats").fill("12");
  await ask.submit.click();
  await expect(last()).toContainText("Thanks! I have the details:");
  // Each value by its label, a whole number as a person writes it.
  await expect(last()).toContainText("Company name: Acme");
  await expect(last()).toContainText("Seats: 12");
  await expect(last()).not.toContainText("12.0");

  await chat.sendMessage("upload a receipt");
  await ask.card.getByTestId("ask-skip").click();
  await expect(last()).toHaveText("No problem, we'll skip that question.");
  expect(chat.consoleErrors).toEqual([]);
});

test("the demo todos: add, list, and a delete that waits for approval", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  const last = () => chat.assistantMessages().last();

  await chat.sendMessage("add todo buy milk");
  await chat.waitForReply(30_000);
  await expect(last()).toHaveText("Added buy milk to your todos.");
  await chat.sendMessage("list my todos");
  await chat.waitForReply(30_000);
  await expect(last()).toContainText("buy milk");
  // None is completed yet: nothing to delete, so nothing to approve.
  await chat.sendMessage("delete my completed todos");
  await chat.waitForReply(30_000);
  await expect(last()).toHaveText("Deleted 0 completed todo(s).");
  await expect(ask.card).toHaveCount(0);
  // Ticked off by its title, the todo is completed, and the delete waits for the approval.
  await chat.sendMessage("complete Buy milk");
  await chat.waitForReply(30_000);
  await expect(last()).toContainText("Ticked off.");
  await chat.sendMessage("delete my completed todos");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Approval needed for Delete completed todos (deleteCompletedTodos)");
  await ask.button("approve").click();
  await expect(last()).toHaveText("Deleted 1 completed todo(s).");
  expect(chat.consoleErrors).toEqual([]);
});
