import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard, lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

test("a PNG and a CSV reach the model", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Send me receipts");
  await ask.card.getByTestId("ask-file-input").setInputFiles([
    { name: "receipt.png", mimeType: "image/png", buffer: PNG },
    { name: "totals.csv", mimeType: "text/csv", buffer: Buffer.from("item,total\nlunch,12\n") },
  ]);
  await expect(ask.card.getByRole("listitem")).toHaveCount(2);
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Receipts received.");
  await expect(ask.summaries()).toHaveText(["✓ You sent 2 files: receipt.png, totals.csv"]);

  const answer = lastRequestOf("Send me receipts").messages.find((message: any) => message.role === "tool");
  expect(answer.parts[1]).toEqual({ type: "image-data", mimeType: "image/png", data: PNG.toString("base64") });
  expect(answer.parts[3]).toEqual({ type: "text", text: "item,total\nlunch,12\n" });
  expect(JSON.stringify(answer.result)).not.toContain("base64");
  // Both went through POST /files/upload: the answer names uploads, not bytes.
  expect(answer.result.content.files.map((file: any) => typeof file.fileId)).toEqual(["string", "string"]);
});

test("a spoofed PNG is refused with MIME_MISMATCH under the picker", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Send me a spoofed receipt");
  await ask.card.getByTestId("ask-file-input").setInputFiles([
    { name: "photo.png", mimeType: "image/png", buffer: Buffer.from("this is only text") },
  ]);
  await ask.submit.click();
  await expect(ask.errors).toHaveText("The file is declared as image/png, but its bytes are text.");
  await expect(ask.card).toBeVisible();
});
