import { HttpAgent } from "@ag-ui/client";
import { AgentCapabilitiesSchema, EventSchemas } from "@ag-ui/core/schemas";
import { expect, test } from "@playwright/test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import {
  AguiClient,
  answerChoice,
  appToolRoundTrip,
  askChoice,
  cannedClient,
  cannedFinished,
  cannedRun,
  cannedStarted,
  type ClientPackage,
  choosing,
  eventsOf,
  expectHarnessFails,
  expectPlainReply,
  expectResultFirst,
  expectSuccess,
  expectWrongChoiceRefused,
  type RunRecord,
  sequence,
  signedUpClient,
  signUpWithToken,
  streamedCall,
  streamedText,
  terminal,
  theInterrupt,
} from "./fixtures/agui";

// Palaver's AG-UI 1.0 face, driven by the official client (`@ag-ui/client` 1.0.0's HttpAgent):
// no browser, only HTTP. Every test ends by checking each run it made against `@ag-ui/core`'s
// schemas and the client's own pipeline (`expectEveryRunValid`). Each test's conversation has
// its own first message, so its script in end2end/mock-model.json is its own. The scenarios
// CopilotKit's 0.0.59 client runs too are fixtures/agui.ts's; agui_copilotkit.spec.ts runs them there.
/** `@ag-ui/client` 1.0.0, validated with `@ag-ui/core` 1.0.0's schemas. */
const client10: ClientPackage<HttpAgent> = { name: "@ag-ui/client 1.0.0", HttpAgent, EventSchemas };

/** The model's tool call an approval interrupt is about: streamed once in the run, with its
 * arguments (the approval is not a call of its own). */
function modelCallOf(record: RunRecord, interrupt: { id: string; toolCallId?: string }) {
  const starts = eventsOf(record, "TOOL_CALL_START").filter((event) => event.toolCallName === "files__write_file");
  expect(starts, `the model's call alone is streamed: ${sequence(record)}`).toHaveLength(1);
  const id = starts[0].toolCallId as string;
  expect(interrupt.toolCallId, "the interrupt is about the model's call").toBe(id);
  expect(id).not.toBe(interrupt.id);
  return { id, ...streamedCall(record, id) };
}

/** The call's result says it did not run. */
function expectNotRun(record: RunRecord, toolCallId: string) {
  const result = eventsOf(record, "TOOL_CALL_RESULT").find((event) => event.toolCallId === toolCallId);
  expect(result, `a result for ${toolCallId}: ${sequence(record)}`).toBeDefined();
  expect(JSON.parse(result?.content)).toMatchObject({ approved: false });
}

test("a choice ask ends the run in an interrupt; resuming with the choice answers the call, then the reply streams", async ({
  request,
}) => {
  const { client, agent } = await signedUpClient(request, client10);
  const { interrupt } = await askChoice(client, agent, "AG-UI: pick a plan");
  await answerChoice(client, agent, interrupt, "team", "AG-UI: you are on the Team plan.");
  client.expectEveryRunValid();
});

test("approvals: a skip (cancelled) and a no (confirmed: false) never run the tool, and the conversation goes on", async ({
  request,
}) => {
  const notes = ["../target/e2e/mcp-files/agui-skipped-note.txt", "../target/e2e/mcp-files/agui-declined-note.txt"];
  for (const note of notes) rmSync(note, { force: true });
  const { client, agent } = await signedUpClient(request, client10);

  const asked = await client.say(agent, "AG-UI: write two notes, then decline both");
  const first = theInterrupt(asked);
  expect(first.reason).toBe("confirmation");
  expect(first.metadata?.palaver).toMatchObject({ origin: "approval", toolName: "files__write_file", server: "files" });
  const modelCall = modelCallOf(asked, first);
  expect(modelCall.input).toEqual({ path: "agui-skipped-note.txt", content: "Never written: skipped" });

  // Skip: a cancelled entry. The resumed run first answers the model's call (not run), and
  // goes on to the model's next call, which waits for an approval of its own.
  const skipped = await client.run(agent, { resume: [{ interruptId: first.id, status: "cancelled" }] });
  expectResultFirst(skipped, modelCall.id);
  expectNotRun(skipped, modelCall.id);
  const second = theInterrupt(skipped);
  expect(second.reason).toBe("confirmation");
  expect(second.id).not.toBe(first.id);
  const secondCall = modelCallOf(skipped, second);
  expect(secondCall.input).toEqual({ path: "agui-declined-note.txt", content: "Never written: declined" });

  // An approval cannot be declined (its responseSchema says so): a decline envelope is refused
  // and the interrupt stays; "no" is an accept with confirmed: false.
  const refused = await client.run(agent, {
    resume: [{ interruptId: second.id, status: "resolved", payload: { action: "decline" } }],
  });
  expect(refused.events.map((event) => event.type), sequence(refused)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(terminal(refused).code).toBe("invalid_answer");
  const declined = await client.run(agent, {
    resume: [
      { interruptId: second.id, status: "resolved", payload: { action: "accept", content: { confirmed: false } } },
    ],
  });
  expectResultFirst(declined, secondCall.id);
  expectNotRun(declined, secondCall.id);
  expect(streamedText(declined)).toBe("AG-UI: nothing was written.");
  expectSuccess(declined);
  for (const note of notes) expect(existsSync(note), `${note} was never written`).toBe(false);

  client.expectEveryRunValid();
});

test("a wrong option id is refused with invalid_answer, and the interrupt stays open until answered right", async ({
  request,
}) => {
  const { client, agent } = await signedUpClient(request, client10);
  const { interrupt } = await askChoice(client, agent, "AG-UI: a wrong option, then the right one");

  const error = await expectWrongChoiceRefused(client, agent, interrupt);
  const errors = error.metadata?.errors as { path: unknown; code: string; message: string }[];
  expect(errors, JSON.stringify(error)).toContainEqual(expect.objectContaining({ code: "OPTION_NOT_OFFERED" }));
  expect(JSON.stringify(errors.find((found) => found.code === "OPTION_NOT_OFFERED")?.path)).toContain("selected");

  // Another client on the same thread: a sync (nothing new) shows the same interrupt again.
  const viewer = client.agent(agent.threadId);
  const sync = await client.run(viewer);
  expect(theInterrupt(sync).id).toBe(interrupt.id);
  expect(eventsOf(sync, "MESSAGES_SNAPSHOT")).toHaveLength(1);
  expect(sync.events.filter((event) => /^(TEXT_MESSAGE|TOOL_CALL)_/.test(event.type)), sequence(sync)).toEqual([]);
  // A new message instead of an answer does not get past it (the official client refuses to
  // send one itself while it knows the interrupt, so this one comes from a client that does not).
  const bypass = client.agent(agent.threadId);
  const pushed = await client.say(bypass, "Never mind, something else");
  expect(terminal(pushed).code, sequence(pushed)).toBe("interrupt_pending");

  await answerChoice(client, agent, interrupt, "enterprise", "AG-UI: Enterprise it is.");

  client.expectEveryRunValid();
});

test("replaying a resume changes nothing and names the interrupt as already answered", async ({ request }) => {
  const { client, agent } = await signedUpClient(request, client10);
  const { interrupt } = await askChoice(client, agent, "AG-UI: the same answer twice");
  const resume = choosing(interrupt, "starter");
  const answered = await client.run(agent, { resume });
  expect(streamedText(answered)).toBe("AG-UI: Starter, once.");
  const stored = eventsOf(answered, "MESSAGES_SNAPSHOT").at(-1)?.messages;

  // The same client again, and a client that never saw the thread: the same answer, once more.
  for (const replaying of [agent, client.agent(agent.threadId)]) {
    const replay = await client.run(replaying, { resume });
    const where = sequence(replay);
    expect(replay.events.filter((event) => /^(TEXT_MESSAGE|TOOL_CALL|STEP)_/.test(event.type)), where).toEqual([]);
    const last = terminal(replay);
    expect(last.type, where).toBe("RUN_FINISHED");
    expect(last.result?.alreadyAnswered, where).toEqual([interrupt.id]);
    expect(last.outcome?.type ?? "success", where).toBe("success");
    expect(eventsOf(replay, "MESSAGES_SNAPSHOT").at(-1)?.messages, "the conversation is as it was").toEqual(stored);
  }

  client.expectEveryRunValid();
});

test("Palaver's AG-UI capabilities; another user's conversation is not found, and a thread name is each user's own", async ({
  request,
  playwright,
}) => {
  const { token, client: owner, agent } = await signedUpClient(request, client10);
  const capabilities = await request.get("/agui/capabilities", { headers: { Authorization: `Bearer ${token}` } });
  expect(capabilities.status()).toBe(200);
  const declared = AgentCapabilitiesSchema.parse(await capabilities.json());
  expect(declared.humanInTheLoop).toMatchObject({ supported: true, interrupts: true });

  await expectPlainReply(owner, agent, "AG-UI: a thread of my own", "AG-UI: this thread is yours.");
  owner.expectEveryRunValid();
  // Nothing runs on the thread now: nothing to attach to.
  const attach = await request.get(`/agui/threads/${agent.threadId}/stream`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(attach.status()).toBe(204);

  const strangerContext = await playwright.request.newContext({ baseURL: "http://127.0.0.1:3100" });
  const stranger = await signUpWithToken(strangerContext);
  const headers = { Authorization: `Bearer ${stranger.token}`, Accept: "text/event-stream" };
  // The owner's conversation, named by its id, is not found for anyone else.
  const conversation = (agent.state as { palaver: { historyId: string } }).palaver.historyId;
  const refused = await strangerContext.post("/agui", {
    headers,
    data: { threadId: conversation, runId: "stranger-run", messages: [] },
  });
  expect(refused.status()).toBe(404);
  // Palaver's problem body (served as application/json, like every API error of Palaver's).
  expect(await refused.json()).toMatchObject({ status: 404 });
  // The same thread name is the stranger's own thread: empty, nothing of the owner's.
  const own = await strangerContext.post("/agui", {
    headers,
    data: { threadId: agent.threadId, runId: "stranger-own", messages: [] },
  });
  expect(own.status()).toBe(200);
  expect(await own.text()).not.toContain("AG-UI: a thread of my own");
  await strangerContext.dispose();
});

test("the harness fails a run that @ag-ui/client refuses: a bad order, or a malformed event", async () => {
  await expectHarnessFails(client10);
  const malformed = cannedClient(client10, [cannedStarted, cannedFinished({ timestamp: 1.5 })]);
  await expect(cannedRun(malformed)).rejects.toThrow(/refused the run/);
});

// --- Across a restart: a Palaver of this test's own, on its own port and database. ---

const restartPort = 3110;
const restartDir = "target/e2e/agui-restart"; // from the repository root
const started: ChildProcess[] = [];

test.afterEach(async () => {
  // Always: a server this file started never outlives its test.
  await Promise.all(started.splice(0).map(stop));
});

async function stop(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGKILL");
  await exited;
}

/** Starts `target/debug/palaver` as playwright.config.ts starts its servers, on `restartDir`'s database. */
async function startPalaver(script: string): Promise<ChildProcess> {
  const server = spawn(process.env.PALAVER_E2E_BIN ?? "target/debug/palaver", [], {
    cwd: "..",
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LEPTOS_OUTPUT_NAME: "palaver",
      LEPTOS_SITE_ROOT: "target/site",
      LEPTOS_SITE_PKG_DIR: "pkg",
      LEPTOS_SITE_ADDR: `127.0.0.1:${restartPort}`,
      PALAVER_DATABASE_URL: `sqlite://${restartDir}/palaver.db?mode=rwc`,
      PALAVER_DATA_DIR: `${restartDir}/data`,
      PALAVER_MODEL: `mock:${restartDir}/${script}`,
      PALAVER_MOCK_LOG: `${restartDir}/mock-log.jsonl`,
      PALAVER_OPEN_SIGNUP: "true",
      PALAVER_SIGNUPS_PER_HOUR: "100000",
      RUST_LOG: "warn",
    },
  });
  started.push(server);
  let stderr = "";
  server.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  // Bounded polling: up, or exited, or 60 s gone.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`palaver exited with ${server.exitCode}: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${restartPort}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`palaver did not answer /health on ${restartPort} within 60 s: ${stderr}`);
}

test("an interrupt outlives a restart of Palaver: resumed on the new process, the reply comes", async ({
  playwright,
}) => {
  test.setTimeout(180_000);
  const prompt = "AG-UI: across a restart";
  const reply = "AG-UI: still here after the restart.";
  rmSync(`../${restartDir}`, { recursive: true, force: true });
  mkdirSync(`../${restartDir}`, { recursive: true });
  const ask = {
    toolCalls: [
      {
        id: "call_agui_restart",
        name: "ask_choice",
        input: {
          prompt: "Which plan should I set up?",
          select: "one",
          options: [
            { id: "starter", label: "Starter" },
            { id: "team", label: "Team" },
          ],
        },
      },
    ],
  };
  // The mock's cursor starts again with the process: the second start's script holds only
  // what comes after the answer.
  writeFileSync(`../${restartDir}/before.json`, JSON.stringify({ conversations: { [prompt]: { responses: [ask] } } }));
  writeFileSync(`../${restartDir}/after.json`, JSON.stringify({ conversations: { [prompt]: { responses: [{ text: reply }] } } }));

  let server = await startPalaver("before.json");
  const baseURL = `http://127.0.0.1:${restartPort}`;
  const context = await playwright.request.newContext({ baseURL });
  const { token } = await signUpWithToken(context, baseURL);
  await context.dispose();
  const client = new AguiClient(client10, `${baseURL}/agui`, token);
  const agent = client.agent();
  const interrupt = theInterrupt(await client.say(agent, prompt));

  await stop(server);
  server = await startPalaver("after.json");

  await answerChoice(client, agent, interrupt, "team", reply);
  await stop(server);

  client.expectEveryRunValid();
});

test("the app's own tool: the model's call of it ends the run as a tool_call interrupt, and the resume's result goes to the model", async ({
  request,
}) => {
  const { client, agent } = await signedUpClient(request, client10);
  await appToolRoundTrip(client, agent, {
    prompt: "AG-UI: ask the app for a colour",
    of: "the sky",
    answer: { colour: "blue" },
    reply: "AG-UI: the app says the sky is blue.",
  });

  client.expectEveryRunValid();
});
