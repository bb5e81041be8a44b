import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a streaming document shows its complete blocks as they arrive, then the checked document", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();

  // The mock model sends this document in seven slow parts; the first four complete only
  // the heading, the fifth the metric and the divider, the last two the rest.
  await chat.sendMessage("Stream a weekly report");
  const reply = chat.assistantMessages().last();
  const streaming = reply.getByTestId("blocks-streaming");
  const pending = reply.getByTestId("blocks-pending");

  // The first parts hold the heading whole and the metric cut off: only the heading shows,
  // inert, with the pending tail after it; the raw YAML never shows as text.
  await expect(streaming.getByRole("heading", { name: "Weekly report" })).toBeVisible();
  await expect(streaming).toHaveAttribute("inert", "");
  await expect(pending).toBeVisible();
  await expect(streaming.locator(".metric__value")).toHaveCount(0);
  await expect(reply).not.toContainText("type: heading");

  // The fifth part completes the metric and the divider; the text block is still cut off.
  await expect(streaming.locator(".metric__value")).toHaveText("1,204");
  await expect(streaming.locator("hr.blocks-divider")).toHaveCount(1);
  await expect(streaming.getByText("All regions grew")).toHaveCount(0);

  // When the reply ends, the checked document replaces the streamed blocks.
  await chat.waitForReply();
  await expect(streaming).toHaveCount(0);
  await expect(pending).toHaveCount(0);
  const blocks = reply.getByTestId("blocks");
  await expect(blocks.getByRole("heading", { name: "Weekly report" })).toBeVisible();
  await expect(blocks.getByText("All regions grew this week, led by the west.")).toBeVisible();
  await expect(blocks.getByRole("note")).toHaveText("On track for the quarter.");
  expect(chat.consoleErrors).toEqual([]);
});
