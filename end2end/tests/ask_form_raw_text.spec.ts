import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// The model wrote these defaults (end2end/mock-model.json): markup that would close the
// textarea, or the attribute, and run a script if the server wrote it as it is.
const note =
  "</textarea><img src=x onerror=\"window.__pwned = 'form'\"><script>window.__pwned = 'form-script'</script>\n\nSecond & last line";
const subject = "\"><img src=x onerror=\"window.__pwned = 'text'\">";

test("a model-written textarea default is server-rendered as text: no script runs, it reads back intact, the page hydrates", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("A form with a hostile default");
  await expect(ask.card.getByLabel("Note")).toHaveValue(note);
  await expect(page).toHaveURL(/\?c=/);
  const conversation = new URL(page.url()).pathname + new URL(page.url()).search;

  // The server's own HTML, before any script: the default stays inside its element.
  const html = await (await page.request.get(conversation)).text();
  expect(html).not.toContain("<img src=x");
  expect(html).toContain("&lt;/textarea&gt;&lt;img src=x");

  // Read back as a browser parses it (streamed parts of the page arrive in templates), the
  // server's textareas hold the defaults exactly.
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, "text/html");
    const roots: ParentNode[] = [doc, ...Array.from(doc.querySelectorAll("template"), (template) => template.content)];
    return {
      textareas: roots.flatMap((root) => Array.from(root.querySelectorAll("textarea"), (area) => area.value)),
      inputs: roots.flatMap((root) => Array.from(root.querySelectorAll("input"), (input) => input.value)),
      images: roots.reduce((count, root) => count + root.querySelectorAll("img").length, 0),
    };
  }, html);
  expect(parsed.textareas).toContain(note);
  expect(parsed.inputs).toContain(subject);
  expect(parsed.images).toBe(0);

  // A reload renders the pending ask on the server; nothing runs, and the card hydrates.
  await page.reload();
  await chat.open(conversation);
  await expect(ask.card.getByLabel("Note")).toHaveValue(note);
  await expect(ask.card.getByLabel("Subject")).toHaveValue(subject);
  await expect(chat.transcript.locator("img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();

  await ask.card.getByLabel("Note").press("Control+End");
  await page.keyboard.type(" (checked)");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Note filed.");
  const answer = lastRequestOf("A form with a hostile default").messages.find((message: any) => message.role === "tool");
  expect(answer.result.content.values).toEqual({ note: `${note} (checked)`, subject });
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  expect(chat.consoleErrors).toEqual([]);
});

test("a markdown draft that starts with a newline keeps it through the server render", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("A draft that starts with a newline");
  const draft = ask.card.getByLabel("Draft");
  await expect(draft).toHaveValue("\n</textarea><b>bold</b>");
  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await expect(draft).toHaveValue("\n</textarea><b>bold</b>");
  await expect(ask.card.locator("textarea + b")).toHaveCount(0);
  await draft.press("Control+End");
  await page.keyboard.type("!");
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Draft kept.");
  const answer = lastRequestOf("A draft that starts with a newline").messages.find((message: any) => message.role === "tool");
  expect(answer.result.content.markdown).toBe("\n</textarea><b>bold</b>!");
});
