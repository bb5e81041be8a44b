import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("a reply is copied as markdown, and the conversation exports as Markdown and JSON", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Keep this one");
  await expect(chat.assistantMessages().last()).toHaveText("Here is the answer.");

  await page.getByTestId("copy-message").last().click();
  await expect(page.getByTestId("copy-message").last()).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Here is **the** answer.");

  const markdown = page.waitForEvent("download");
  await page.getByRole("link", { name: "Markdown" }).click();
  const file = await markdown;
  expect(file.suggestedFilename()).toBe("Keep-this-one.md");
  const href = await page.getByRole("link", { name: "Markdown" }).getAttribute("href");
  const text = await (await page.request.get(href!)).text();
  expect(text).toBe("# Keep this one\n\n**You:**\n\n> Keep this one\n\n**Palaver:**\n\n> Here is **the** answer.\n");
  const json = page.waitForEvent("download");
  await page.getByRole("link", { name: "JSON" }).click();
  expect((await json).suggestedFilename()).toBe("Keep-this-one.json");
});

test("Escape stops a running reply", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A reply I stop with Escape");
  await expect(chat.assistantMessages().last()).toContainText("It begins,");
  await chat.composer.press("Escape");
  await expect(chat.send).toHaveText("Send");
  await expect(chat.assistantMessages().last()).not.toContainText("and it ends.");
});

test("a reply the model failed is taken back, and Retry sends the message again", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A reply the model drops");
  // As the reference has it, a step that fails says nothing: its streamed text goes, the error stays.
  await expect(page.getByTestId("turn-error")).toHaveText("The model went away.");
  await expect(chat.transcript).not.toContainText("It starts well");
  // The reloaded conversation shows the message without a reply; the error stays beside it.
  await expect(page.getByTestId("no-reply").getByTestId("regenerate")).toHaveText("Retry");
  await expect(page.getByTestId("turn-error")).toHaveText("The model went away.");
  // Another conversation has nothing to say of it.
  await page.getByTestId("new-chat").click();
  await expect(page.getByTestId("turn-error")).toHaveCount(0);
  await page.goBack();
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(chat.userMessages()).toHaveText(["A reply the model drops"]);
  await expect(chat.assistantMessages()).toHaveCount(0);
  const retry = page.getByTestId("no-reply").getByTestId("regenerate");
  await expect(retry).toHaveText("Retry");
  await retry.click();
  await expect(chat.assistantMessages()).toHaveText(["It ends well."]);
  await expect(chat.userMessages()).toHaveText(["A reply the model drops"]);
  await expect(page.getByTestId("no-reply")).toHaveCount(0);
  await expect(page.getByTestId("regenerate")).toHaveText("Regenerate");
  // The model was told of the message once, not of the failed attempt.
  expect(lastRequestOf("A reply the model drops").messages.map((message: any) => message.text)).toEqual(["A reply the model drops"]);
});

test("the last reply is regenerated, and the last message edited and sent in its place", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Pick a number");
  await expect(chat.assistantMessages().last()).toHaveText("Seven.");
  await chat.sendMessage("And a colour?");
  await expect(chat.assistantMessages().last()).toHaveText("Red.");
  await chat.waitForReply();

  // Every reply has Regenerate, every message Edit.
  await expect(page.getByTestId("regenerate")).toHaveCount(2);
  await expect(page.getByTestId("edit-message")).toHaveCount(2);
  await page.getByTestId("regenerate").last().click();
  await expect(chat.assistantMessages()).toHaveText(["Seven.", "Crimson."]);
  await expect(chat.userMessages()).toHaveText(["Pick a number", "And a colour?"]);
  await chat.waitForReply();

  await page.getByTestId("edit-message").last().click();
  const edit = page.getByRole("form", { name: "Edit your message" });
  await expect(edit.getByLabel("Your message")).toHaveValue("And a colour?");
  await edit.getByLabel("Your message").press("Escape");
  await expect(edit).toHaveCount(0);
  await expect(chat.userMessages().last()).toHaveText("And a colour?");

  await page.getByTestId("edit-message").last().click();
  await edit.getByLabel("Your message").fill("And a fruit?");
  await edit.getByLabel("Your message").press("Enter");
  await expect(chat.userMessages()).toHaveText(["Pick a number", "And a fruit?"]);
  await expect(chat.assistantMessages()).toHaveText(["Seven.", "Pear."]);
  await chat.waitForReply();

  // What shows is what was saved.
  await page.reload();
  await expect(chat.userMessages()).toHaveText(["Pick a number", "And a fruit?"]);
  await expect(chat.assistantMessages()).toHaveText(["Seven.", "Pear."]);
});

test("a code block is highlighted and its Copy button copies the code", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Show me some code");
  const reply = chat.assistantMessages().last();
  const python = reply.locator(".code-block").first();
  await expect(python.locator(".code-language")).toHaveText("python");
  // highlight.js has marked the code up: the keyword and the string are spans of their own.
  await expect(python.locator(".hljs-keyword").first()).toHaveText("def");
  await expect(python.locator(".hljs-string")).toContainText("Hello");
  const unknown = reply.locator(".code-block").last();
  await expect(unknown.locator("code")).toHaveAttribute("data-highlighted", "plain");
  await expect(unknown.locator("code span")).toHaveCount(0);

  // The reply is drawn again once its turn is stored: click the button that stays.
  await chat.waitForReply();
  const copy = python.getByRole("button", { name: "Copy code" });
  await expect(async () => {
    await copy.click();
    await expect(copy).toHaveText("Copied", { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('def greet(name):\n    return f"Hello, {name}"\n');
  expect(chat.consoleErrors).toEqual([]);
});

test("files attached to a message are uploaded, shown on it and reach the model", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await page.getByTestId("attach-files").setInputFiles([
    { name: "receipt.txt", mimeType: "text/plain", buffer: Buffer.from("lunch 12.50") },
    { name: "extra.txt", mimeType: "text/plain", buffer: Buffer.from("not this one") },
  ]);
  const pending = page.getByTestId("pending-files");
  await expect(pending.getByTestId("attachment")).toHaveCount(2);
  await pending.getByRole("button", { name: "Remove extra.txt" }).click();
  // What stays: its name and size, and its own Remove button ("×").
  await expect(pending.getByTestId("attachment")).toHaveText(["receipt.txt11 B×"]);

  await chat.sendMessage("What is on this receipt?");
  await expect(chat.assistantMessages().last()).toHaveText("A lunch, 12.50.");
  await expect(pending).toBeHidden();
  await expect(chat.userMessages().last().getByTestId("attachment")).toHaveText("receipt.txt11 B");
  const sent = lastRequestOf("What is on this receipt?").messages[0];
  expect(sent.parts.map((part: any) => part.text)).toEqual(["File 1 of 1: receipt.txt (text/plain, 11 bytes)", "lunch 12.50"]);

  await page.reload();
  await expect(chat.userMessages().last().getByTestId("attachment")).toHaveText("receipt.txt11 B");
  expect(chat.consoleErrors).toEqual([]);
});

test("any message is edited and any reply regenerated, and each version shows again after a reload", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Pick a letter");
  await expect(chat.assistantMessages().last()).toHaveText("A.");
  await chat.sendMessage("And a shape?");
  await expect(chat.assistantMessages().last()).toHaveText("Circle.");
  await chat.waitForReply();

  // The first reply, written again: what followed it is kept as the first version.
  await page.getByTestId("regenerate").first().click();
  await expect(chat.assistantMessages()).toHaveText(["B."]);
  await expect(chat.userMessages()).toHaveText(["Pick a letter"]);
  await chat.waitForReply();
  const versions = page.getByTestId("branches");
  await expect(versions.getByTestId("branch-position")).toHaveText("2/2");
  await expect(versions.getByRole("button", { name: "Next version" })).toBeDisabled();
  await versions.getByRole("button", { name: "Previous version" }).click();
  await expect(chat.userMessages()).toHaveText(["Pick a letter", "And a shape?"]);
  await expect(chat.assistantMessages()).toHaveText(["A.", "Circle."]);
  await expect(versions.getByTestId("branch-position")).toHaveText("1/2");

  // The second message, edited: a version of its own.
  await page.getByTestId("edit-message").last().click();
  const edit = page.getByRole("form", { name: "Edit your message" });
  await edit.getByLabel("Your message").fill("And a number?");
  await edit.getByLabel("Your message").press("Enter");
  await expect(chat.assistantMessages()).toHaveText(["A.", "Nine."]);
  await chat.waitForReply();
  await expect(versions.getByTestId("branch-position")).toHaveText(["1/2", "2/2"]);

  // Stored: a reload shows the same, and the other version is still there.
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(chat.userMessages()).toHaveText(["Pick a letter", "And a number?"]);
  await expect(versions.getByTestId("branch-position")).toHaveText(["1/2", "2/2"]);
  await versions.first().getByRole("button", { name: "Next version" }).click();
  await expect(chat.assistantMessages()).toHaveText(["B."]);
  await page.reload();
  await expect(chat.assistantMessages()).toHaveText(["B."]);
  await expect(versions.getByTestId("branch-position")).toHaveText("2/2");
});
