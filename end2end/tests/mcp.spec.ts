import { expect, test } from "@playwright/test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// The chat server is connected to real MCP servers from npm (end2end/mcp-servers.json).
const note = "../target/e2e/mcp-files/note-from-chat.txt";

test("an MCP write waits for an approval that names the server, the tool and its arguments", async ({ page }) => {
  rmSync(note, { force: true });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Write a note through MCP");
  await expect(ask.card.getByTestId("approval-tool")).toHaveText("Approval needed for Write File (files__write_file)");
  await expect(ask.card.getByTestId("palaver-server")).toHaveText("On the MCP server files");
  await expect(ask.card.locator(".ask-card__prompt")).toHaveText('Run Write File on the MCP server "files"?');
  await expect(ask.card.getByTestId("call-argument-key")).toHaveText(["path", "content"]);
  await expect(ask.card.getByTestId("call-argument-value")).toHaveText(['"note-from-chat.txt"', '"Written from the chat"']);
  await expect(ask.button("approve")).toHaveClass(/ask-button--destructive/);
  expect(existsSync(note), "nothing is written before the approval").toBe(false);

  await ask.button("approve").click();
  await expect(chat.assistantMessages().last()).toHaveText("The note is written.");
  expect(readFileSync(note, "utf8")).toBe("Written from the chat");
});

test("an MCP server's elicitation is a form filled in the chat, page by page", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Ask me through MCP");
  await expect(ask.card.locator(".ask-card__title")).toHaveText('The MCP server "everything" asks (1 of 2)');
  await expect(ask.card.locator(".ask-card__prompt")).toHaveText("Please provide inputs for the following fields:");
  await expect(ask.submit).toBeDisabled(); // the name is required
  await ask.card.getByRole("textbox", { name: "String", exact: true }).fill("Ada Lovelace");
  await ask.card.getByRole("textbox", { name: "String with email format" }).fill("ada@example.com");
  await ask.submit.click();

  await expect(ask.card.locator(".ask-card__title")).toHaveText('The MCP server "everything" asks (2 of 2)');
  await ask.submit.click(); // every field of the second page has its default
  await expect(chat.assistantMessages().last()).toHaveText("Thanks for answering the server.");
  await page.getByTestId("tool-line").getByText("Used Trigger elicitation request").click();
  await expect(page.getByTestId("tool-line")).toContainText("User provided the requested information");
  await expect(page.getByTestId("tool-line")).toContainText("Ada Lovelace");
});

test("an MCP 2026-07-28 server's input requests are cards, round after round, and the call finishes", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Book a table through MCP");
  await expect(ask.card.locator(".ask-card__title")).toHaveText('The MCP server "desk" asks');
  await expect(ask.card.locator(".ask-card__prompt")).toHaveText("Who is the table for?");
  await expect(ask.card.getByRole("textbox", { name: "Name" })).toHaveValue("Ada"); // the schema's default
  await ask.card.getByRole("textbox", { name: "Name" }).fill("Grace Hopper");
  await ask.submit.click();

  // The server needs more once it has the name: a second round, a second card.
  await expect(ask.card.locator(".ask-card__prompt")).toHaveText("Where should Grace Hopper sit, and with how many?");
  await ask.card.getByRole("combobox", { name: "Room" }).selectOption({ label: "terrace" });
  await ask.card.getByRole("spinbutton", { name: "Guests" }).fill("4");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("The table is booked.");
  await page.getByTestId("tool-line").getByText("Used Book Table").click();
  await expect(page.getByTestId("tool-line")).toContainText("Booked the terrace for Grace Hopper, 4 guests.");
});
