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
  await expect(ask.errors).toHaveText("photo.png says it is image/png, but its contents are something else.");
  await expect(ask.card).toBeVisible();
});

test("an upload shows its progress while it is sent", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();
  await chat.sendMessage("Upload a big receipt");
  // A slow uplink (200 KB/s) makes a 600 KB upload take long enough to watch.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 200 * 1024,
  });
  const big = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
  await ask.card.getByTestId("ask-file-input").setInputFiles([{ name: "big.png", mimeType: "image/png", buffer: big }]);
  const progress = ask.card.getByRole("progressbar", { name: "Uploading big.png" });
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute("value")), { timeout: 10_000 })
    .toBeGreaterThan(0);
  await expect(ask.card.getByRole("listitem")).toHaveText(/big\.png \(image\/png, \d+ bytes\)/, { timeout: 15_000 });
  await expect(progress).toHaveCount(0);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await ask.submit.click();
  await expect(chat.assistantMessages().last()).toHaveText("Big receipt received.");
});
