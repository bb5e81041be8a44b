import { expect, type Locator, type Page, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

/** An 8×8 blue PNG: a real picture, so a thumbnail of it has a size once it loads. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAEklEQVR4nGNQCTn6Hx9mGBkKAGEPjwFOzrriAAAAAElFTkSuQmCC",
  "base64",
);
const CSV = Buffer.from("item,total\nlunch,12\n");

type GivenFile = { name: string; type: string; bytes: number[] };

function file(name: string, type: string, bytes: Buffer): GivenFile {
  return { name, type, bytes: [...bytes] };
}

/** Pastes `files` into `target`, as a paste from the clipboard (a screenshot, say) arrives. */
async function paste(target: Locator, files: GivenFile[]) {
  await target.evaluate((element, files) => {
    const clipboardData = new DataTransfer();
    for (const { name, type, bytes } of files) clipboardData.items.add(new File([new Uint8Array(bytes)], name, { type }));
    element.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
  }, files);
}

/** Drags `files` over `target` (they stay in the air until `drop`). */
async function dragOver(target: Locator, files: GivenFile[]) {
  await target.evaluate((element, files) => {
    const dataTransfer = new DataTransfer();
    for (const { name, type, bytes } of files) dataTransfer.items.add(new File([new Uint8Array(bytes)], name, { type }));
    (window as any).__dragged = dataTransfer;
    for (const kind of ["dragenter", "dragover"]) {
      element.dispatchEvent(new DragEvent(kind, { dataTransfer, bubbles: true, cancelable: true }));
    }
  }, files);
}

/** Drops what `dragOver` is dragging onto `target`. */
async function drop(target: Locator) {
  await target.evaluate((element) => {
    const dataTransfer = (window as any).__dragged as DataTransfer;
    element.dispatchEvent(new DragEvent("drop", { dataTransfer, bubbles: true, cancelable: true }));
  });
}

/** Whether an image has loaded, with a size (a broken one has none). */
async function expectLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
}

async function openChat(page: Page) {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  return chat;
}

test("a pasted picture is attached with its thumbnail, and a dropped CSV joins the next message", async ({ page }) => {
  const chat = await openChat(page);
  const pending = page.getByTestId("pending-files");
  await chat.composer.focus();
  await paste(chat.composer, [file("screenshot.png", "image/png", PNG)]);
  const chip = pending.getByTestId("attachment");
  await expect(chip).toHaveText(["screenshot.png75 B×"]);
  const thumbnail = chip.getByRole("img", { name: "screenshot.png" });
  await expectLoaded(thumbnail);
  await expect(thumbnail).toHaveAttribute("loading", "lazy");

  await chat.sendMessage("What is in this pasted picture?");
  await expect(chat.assistantMessages().last()).toHaveText("A small blue square.");
  await expect(pending).toBeHidden();
  const sent = chat.userMessages().last().getByTestId("attachment");
  await expect(sent).toHaveText("screenshot.png75 B");
  await expectLoaded(sent.getByRole("img", { name: "screenshot.png" }));
  const parts = lastRequestOf("What is in this pasted picture?").messages[0].parts;
  expect(parts[1]).toEqual({ type: "image-data", mimeType: "image/png", data: PNG.toString("base64") });

  // Dragged over the chat, the files show where they will go; dropped, they wait in the composer.
  const dropZone = page.getByTestId("drop-zone");
  await expect(dropZone).toBeHidden();
  await dragOver(chat.transcript, [file("totals.csv", "text/csv", CSV)]);
  await expect(dropZone).toBeVisible();
  await expect(dropZone).toHaveText("Drop files here to attach them to your message");
  await drop(chat.transcript);
  await expect(dropZone).toBeHidden();
  await expect(pending.getByTestId("attachment")).toHaveText(["totals.csv20 B×"]);
  await expect(pending.getByRole("img")).toHaveCount(0);
  expect(chat.consoleErrors).toEqual([]);
});

test("files dropped onto a files card, or pasted into it, are the card's", async ({ page }) => {
  const chat = await openChat(page);
  const ask = new AskCard(page);
  await chat.sendMessage("Drop receipts onto this card");
  await expect(ask.card).toBeVisible();

  // Over the card, the chat's drop zone stands aside: the card takes the files.
  await dragOver(ask.card, [file("receipt.png", "image/png", PNG)]);
  await expect(page.getByTestId("drop-zone")).toBeHidden();
  await drop(ask.card);
  const picked = ask.card.getByTestId("ask-files-picked").getByRole("listitem");
  await expect(picked).toHaveText([/^receipt\.png \(image\/png, 75 bytes\)/]);
  await expectLoaded(picked.getByRole("img", { name: "receipt.png" }));

  await ask.card.getByTestId("ask-file-input").focus();
  await paste(ask.card.getByTestId("ask-file-input"), [file("totals.csv", "text/csv", CSV)]);
  await expect(picked).toHaveText([/^receipt\.png/, /^totals\.csv \(text\/csv, 20 bytes\)/]);
  await expect(page.getByTestId("pending-files")).toBeHidden();

  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Dropped receipts received.");
  await expect(ask.summaries()).toHaveText(["✓ You sent 2 files: receipt.png, totals.csv"]);
  const answer = lastRequestOf("Drop receipts onto this card").messages.find((message: any) => message.role === "tool");
  expect(answer.parts[1]).toEqual({ type: "image-data", mimeType: "image/png", data: PNG.toString("base64") });
  expect(answer.result.content.files.map((file: any) => typeof file.fileId)).toEqual(["string", "string"]);
  expect(chat.consoleErrors).toEqual([]);
});
