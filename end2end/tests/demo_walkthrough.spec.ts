import { expect, test } from "@playwright/test";
import { demoPort } from "../playwright.config";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// The first run as the README tells it: the keyless demo agent on the defaults (blocks on).
test.use({ baseURL: `http://127.0.0.1:${demoPort}` });

test("the demo agent's first phrases show as they should: prose as markdown, documents as blocks", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();

  // The help text is markdown a YAML reader would reject (`**` reads as an alias): it is prose.
  await chat.sendMessage("help");
  await chat.waitForReply();
  const help = chat.assistantMessages().last();
  await expect(help.locator("strong").first()).toHaveText("Palaver demo agent");
  await expect(help.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("markdown");
  await chat.waitForReply();
  const tour = chat.assistantMessages().last();
  await expect(tour.getByRole("heading", { name: "A heading" })).toBeVisible();
  await expect(tour.getByRole("table")).toBeVisible();
  await expect(tour.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("dashboard");
  await chat.waitForReply();
  const dashboard = chat.assistantMessages().last();
  await expect(dashboard.getByTestId("table")).toBeVisible();
  await expect(dashboard.getByTestId("blocks-error")).toHaveCount(0);

  await chat.sendMessage("set up a plan");
  await expect(ask.card).toBeVisible();
  await ask.card.getByRole("button", { name: "Team" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("You chose Team. Done!");
  expect(chat.consoleErrors).toEqual([]);
});
