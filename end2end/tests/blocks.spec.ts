import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a block document renders every block type, and its actions work", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const outside: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://127.0.0.1")) outside.push(request.url());
  });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();

  await chat.sendMessage("Show me every block");
  await chat.waitForReply();
  const reply = chat.assistantMessages().last();
  const blocks = reply.getByTestId("blocks");
  await expect(blocks.getByRole("heading", { name: "Every block at once" })).toBeVisible();
  await expect(blocks.locator("strong").first()).toHaveText("12%");
  await expect(blocks.locator(".metric__value")).toHaveText("403");
  await expect(blocks.locator(".badge")).toHaveText("Draft");
  await expect(blocks.locator("hr.blocks-divider")).toHaveCount(1);
  await expect(blocks.getByText("Numbers from the billing system.")).toBeVisible();
  await expect(blocks.getByRole("img", { name: "Signups over time" })).toBeVisible();
  await expect(blocks.getByRole("img", { name: "Plans" })).toBeVisible();
  const table = blocks.getByRole("table", { name: "Signups table" });
  await expect(table.getByRole("columnheader")).toHaveText(["period", "signups"]);
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(blocks.locator(".blocks-card__eyebrow")).toHaveText("Plan");
  await expect(blocks.getByRole("note")).toHaveText("Mind the oven.");
  await expect(blocks.getByRole("img", { name: "A single pixel" })).toBeVisible();
  await blocks.getByText("Why rest the lamb?").click();
  await expect(blocks.getByText("The juices settle.")).toBeVisible();
  await expect(blocks.locator(".blocks-gallery img")).toHaveCount(2);
  await expect(blocks.locator(".blocks-list__item")).toHaveCount(2);

  // The html block: sanitized on the server, in a sandbox where no script runs, with the CSP
  // first; the frame is as tall as its content (the invoice is short), at most the block's height.
  const frame = blocks.getByTestId("html-block").locator("iframe");
  await expect(frame).toHaveAttribute("sandbox", "allow-same-origin");
  await expect
    .poll(async () => {
      const [outer, inner] = await frame.evaluate((f: HTMLIFrameElement) => [
        f.getBoundingClientRect().height,
        f.contentDocument!.documentElement.scrollHeight,
      ]);
      return outer < 400 && Math.abs(outer - inner) <= 2;
    })
    .toBe(true);
  await expect(frame).toHaveAttribute("referrerpolicy", "no-referrer");
  const srcdoc = (await frame.getAttribute("srcdoc")) ?? "";
  expect(srcdoc.startsWith(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`)).toBe(true);
  expect(srcdoc).not.toContain("<script");
  expect(srcdoc).not.toContain("onclick");
  expect(srcdoc).toContain("<h1>Invoice #1042</h1>");
  await expect(blocks.getByTestId("html-block")).toContainText("Agent-generated preview");

  // select: the segmented control switches the chart's dataset.
  const chartData = blocks.locator(".chart").first().locator("table tbody th");
  await expect(chartData).toHaveText(["Jan", "Feb", "Mar"]);
  await blocks.getByRole("button", { name: "Weekly", exact: true }).click();
  await expect(chartData).toHaveText(["W1", "W2"]);
  await expect(blocks.getByRole("button", { name: "Weekly", exact: true })).toHaveAttribute("aria-pressed", "true");

  // open: a new tab without opener or referrer.
  const link = blocks.getByRole("link", { name: "Open the docs" });
  await expect(link).toHaveAttribute("href", "https://example.com/docs");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");

  // copy: the table's plain text reaches the clipboard.
  await blocks.getByRole("button", { name: "Copy the table" }).click();
  await expect(blocks.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("period\tsignups\nJan\t120\nFeb\t160\nMar\t123");

  // The stepper and the checklist call their host actions.
  await blocks.getByRole("button", { name: "Increase Guests" }).click();
  await expect(blocks.getByTestId("stepper-value")).toHaveText("5 people");
  await expect(blocks.locator(".stepper__items li")).toHaveText(/^Lamb\s*2\.0 kg$/);
  const count = blocks.getByTestId("checklist-count");
  await expect(count).toHaveText("1 of 3");
  await blocks.getByRole("checkbox", { name: "Roast the lamb" }).check();
  await expect(count).toHaveText("2 of 3");

  // reply: the button's text goes out as the next message.
  await blocks.getByRole("button", { name: "Ask for weekly" }).click();
  await expect(chat.userMessages().last()).toHaveText("Show weekly signups");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("Here are the weekly numbers.");

  // After a reload the document renders again from the stored reply.
  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  const reloaded = chat.assistantMessages().first();
  await expect(reloaded.getByRole("heading", { name: "Every block at once" })).toBeVisible();
  // The stepper and the checklist come back as the user left them.
  await expect(reloaded.getByTestId("stepper-value")).toHaveText("5 people");
  await expect(reloaded.getByTestId("checklist-count")).toHaveText("2 of 3");

  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  expect(outside).toEqual([]);
  expect(chat.consoleErrors).toEqual([]);
});

test("a document with errors shows them, with the reply as sent collapsed", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Send a broken document");
  await chat.waitForReply();
  const banner = chat.assistantMessages().last().getByTestId("blocks-error");
  await expect(banner).toContainText("blocks[0].size INVALID_ENUM");
  await expect(banner).toContainText("blocks[0].text MISSING_REQUIRED");
  const raw = banner.locator("pre");
  await expect(raw).toBeHidden();
  await banner.getByText("Show the reply as sent").click();
  await expect(raw).toContainText("size: huge");
  expect(chat.consoleErrors).toEqual([]);
});

test("a prose reply a YAML reader would reject shows as markdown, with no error banner", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Tell me in bold");
  await chat.waitForReply();
  const reply = chat.assistantMessages().last();
  await expect(reply.locator("strong").first()).toHaveText("Palaver demo agent");
  await expect(reply.getByRole("listitem")).toHaveCount(2);
  await expect(reply.getByTestId("blocks-error")).toHaveCount(0);
  await page.reload();
  await expect(chat.assistantMessages().last().getByTestId("blocks-error")).toHaveCount(0);
});
