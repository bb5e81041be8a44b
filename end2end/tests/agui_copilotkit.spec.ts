import { EventSchemas as EventSchemas10 } from "@ag-ui/core/schemas";
import { expect, test } from "@playwright/test";
import { EventSchemas, HttpAgent } from "ag-ui-client-0059";
import * as agui from "./fixtures/agui";

// CopilotKit compatibility. CopilotKit's runtime 1.75 talks to a remote AG-UI agent through
// `@ag-ui/client` 0.0.59 (installed here as `ag-ui-client-0059`, with its own `@ag-ui/core`
// 0.0.59), which is stricter than 1.0.0: RUN_FINISHED's outcome is only success|interrupt and
// strict, tool content is a string only (docs/design/agui-1.0-reading-notes.md §10). Every run
// here goes through that client's whole pipeline (its `EventSchemas.parse` of each SSE frame,
// then its verifier, then its reducer) and fails on anything it throws or logs. The scenarios
// are fixtures/agui.ts's, the ones agui.spec.ts runs with 1.0.0, each on its own 0.0.59 script.

/** `@ag-ui/client` 0.0.59, validated with its own nested `@ag-ui/core` 0.0.59's schemas. */
const client0059: agui.ClientPackage<HttpAgent> = { name: "@ag-ui/client 0.0.59", HttpAgent, EventSchemas };

test("0.0.59: a plain run streams the reply and ends in a success the client accepts", async ({ request }) => {
  const { client, agent } = await agui.signedUpClient(request, client0059);

  const reply = "AG-UI 0.0.59: hello from Palaver.";
  const said = await agui.expectPlainReply(client, agent, "AG-UI 0.0.59: say hello", reply);
  // What 0.0.59 sends (and Palaver takes): no protocolVersion, tools/context/forwardedProps always.
  expect(said.request).not.toHaveProperty("protocolVersion");
  expect(said.request).toMatchObject({ tools: [], context: [], forwardedProps: {} });

  client.expectEveryRunValid();
});

test("0.0.59: a choice ask ends in an interrupt the client accepts; a wrong answer is a RUN_ERROR, the right one goes on to the reply", async ({
  request,
}) => {
  const { client, agent } = await agui.signedUpClient(request, client0059);

  const { interrupt } = await agui.askChoice(client, agent, "AG-UI 0.0.59: pick a plan");
  await agui.expectWrongChoiceRefused(client, agent, interrupt);
  await agui.answerChoice(client, agent, interrupt, "team", "AG-UI 0.0.59: you are on the Team plan.");

  client.expectEveryRunValid();
});

test("0.0.59: the app's own tool ends the run as a tool_call interrupt, and the resume's payload reaches the model", async ({
  request,
}) => {
  const { client, agent } = await agui.signedUpClient(request, client0059);
  await agui.appToolRoundTrip(client, agent, {
    prompt: "AG-UI 0.0.59: ask the app for a colour",
    of: "the sea",
    answer: { colour: "green" },
    reply: "AG-UI 0.0.59: the app says the sea is green.",
  });

  client.expectEveryRunValid();
});

test("the 0.0.59 harness fails what CopilotKit's parser refuses, though 1.0 takes it", async () => {
  // Each with the zod message 0.0.59's SSE parser throws.
  const refusedBy0059: [agui.WireEvent, RegExp][] = [
    [
      agui.cannedFinished({ outcome: { type: "cancelled" } }),
      /Invalid discriminator value. Expected 'success' \| 'interrupt'/,
    ],
    [
      agui.cannedFinished({ outcome: { type: "success", pendingToolCallIds: ["c1"] } }),
      /Unrecognized key\(s\) in object: 'pendingToolCallIds'/,
    ],
    [
      { type: "TOOL_CALL_RESULT", messageId: "m", toolCallId: "c1", content: [{ type: "text", text: "x" }] },
      /Expected string, received array/,
    ],
  ];
  for (const [event, message] of refusedBy0059) {
    expect(EventSchemas10.safeParse(event).success, `1.0 takes ${JSON.stringify(event)}`).toBe(true);
    const rest = event.type === "RUN_FINISHED" ? [] : [agui.cannedFinished()];
    const events = [agui.cannedStarted, event, ...rest];
    await expect(agui.cannedRun(agui.cannedClient(client0059, events)), JSON.stringify(event)).rejects.toThrow(message);
  }
  await agui.expectHarnessFails(client0059);
});
