import { EventSchemas as EventSchemas10 } from "@ag-ui/core/schemas";
import { expect, test } from "@playwright/test";
import {
  type BaseEvent,
  EventSchemas,
  HttpAgent,
  type Interrupt,
  type Message,
  type RunAgentInput,
  type RunAgentParameters,
} from "ag-ui-client-0059";
import { randomUUID } from "node:crypto";
import {
  eventsOf,
  type RunRecord,
  sequence,
  signUpWithToken,
  streamedText,
  terminal,
  theInterrupt,
  type WireEvent,
} from "./fixtures/agui";

// CopilotKit compatibility. CopilotKit's runtime 1.75 talks to a remote AG-UI agent through
// `@ag-ui/client` 0.0.59 (installed here as `ag-ui-client-0059`, with its own `@ag-ui/core`
// 0.0.59), which is stricter than 1.0.0: RUN_FINISHED's outcome is only success|interrupt and
// strict, tool content is a string only (docs/design/agui-1.0-reading-notes.md §10). Every run
// here goes through that client's whole pipeline (its `EventSchemas.parse` of each SSE frame,
// then its verifier, then its reducer) and fails on anything it throws or logs.
const aguiUrl = "http://127.0.0.1:3100/agui";

/** How the 0.0.59 client reported the run's end to its subscribers (`onRunFinishedEvent`). */
type Finished = { outcome: "success"; result?: unknown } | { outcome: "interrupt"; interrupts: Interrupt[] };

/** One 0.0.59 `runAgent` call: the fixture's record, plus what the client sent and concluded. */
interface Run0059 extends RunRecord {
  /** The RunAgentInput the client POSTed. */
  request: RunAgentInput;
  /** What the client handed to `onRunFinishedEvent` (absent when the run ended in RUN_ERROR). */
  finished?: Finished;
  /** The client's events as its own schemas parsed them (`seen` typed as 0.0.59's). */
  parsed: BaseEvent[];
}

/** The SSE body's events (`data:` lines) and frame ids, as Palaver frames them. */
function framesOf(body: string): { ids: (string | undefined)[]; events: WireEvent[] } {
  const ids: (string | undefined)[] = [];
  const events: WireEvent[] = [];
  for (const frame of body.split("\n\n")) {
    const lines = frame.split("\n");
    const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length === 0) continue;
    ids.push(lines.find((line) => line.startsWith("id:"))?.slice(3).trim());
    events.push(JSON.parse(data.join("\n")) as WireEvent);
  }
  return { ids, events };
}

/**
 * The 0.0.59 HttpAgent pointed at Palaver, each response's body also kept as sent. A run fails
 * when the client threw (a schema failure in its SSE parser, an order its verifier refuses) or
 * logged anything (its reducer warns, and swallows, what it cannot apply).
 */
class CopilotKitParser {
  readonly runs: Run0059[] = [];
  private captured: { request: RunAgentInput; status: number; contentType: string; body: Promise<string> }[] = [];

  constructor(
    readonly url: string,
    readonly token: string,
    private readonly transport: typeof fetch = fetch,
  ) {}

  agent(threadId: string = `agui0059-${randomUUID()}`): HttpAgent {
    return new HttpAgent({
      url: this.url,
      threadId,
      headers: { Authorization: `Bearer ${this.token}` },
      fetch: (url, init) => this.capturingFetch(url, init),
    });
  }

  private async capturingFetch(url: string, init: RequestInit): Promise<Response> {
    const request = JSON.parse(String(init.body)) as RunAgentInput;
    const response = await this.transport(url, init);
    const status = response.status;
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.body) {
      this.captured.push({ request, status, contentType, body: Promise.resolve("") });
      return response;
    }
    const [forAgent, forTest] = response.body.tee();
    this.captured.push({ request, status, contentType, body: new Response(forTest).text() });
    return new Response(forAgent, { status, statusText: response.statusText, headers: response.headers });
  }

  async say(agent: HttpAgent, prompt: string, parameters: RunAgentParameters = {}): Promise<Run0059> {
    agent.addMessage({ id: `user-${randomUUID()}`, role: "user", content: prompt } as Message);
    return this.run(agent, parameters);
  }

  async run(agent: HttpAgent, parameters: RunAgentParameters = {}): Promise<Run0059> {
    const runId = parameters.runId ?? `run-${randomUUID()}`;
    const parsed: BaseEvent[] = [];
    const logged: string[] = [];
    let finished: Finished | undefined;
    const { warn, error } = console;
    console.warn = (...args: unknown[]) => void logged.push(`warn: ${args.map(String).join(" ")}`);
    console.error = (...args: unknown[]) => void logged.push(`error: ${args.map(String).join(" ")}`);
    let failure: unknown;
    this.captured = [];
    try {
      await agent.runAgent(
        { ...parameters, runId },
        {
          onEvent: ({ event }) => void parsed.push(event),
          onRunFinishedEvent: (params) => {
            finished =
              params.outcome === "interrupt"
                ? { outcome: "interrupt", interrupts: params.interrupts }
                : { outcome: "success", result: params.result };
          },
        },
      );
    } catch (caught) {
      failure = caught;
    } finally {
      console.warn = warn;
      console.error = error;
    }
    expect(this.captured, "one HTTP response per run").toHaveLength(1);
    const { request, status, contentType } = this.captured[0];
    const body = await this.captured[0].body;
    const { ids, events } = status === 200 ? framesOf(body) : { ids: [], events: [] };
    const record: Run0059 = {
      runId,
      status,
      contentType,
      body,
      frameIds: ids,
      events,
      // The fixture's record types `seen` with 1.0's event types; these are 0.0.59's.
      seen: parsed as unknown as RunRecord["seen"],
      warnings: logged,
      request,
      finished,
      parsed,
    };
    this.runs.push(record);
    if (failure !== undefined || logged.length > 0) {
      throw new Error(
        `@ag-ui/client 0.0.59 refused the run (HTTP ${status}): ${failure === undefined ? "-" : String(failure)}\n` +
          `logged: ${logged.join("\n") || "-"}\nevents: ${sequence(record)}\nbody: ${body.slice(0, 2000)}`,
      );
    }
    return record;
  }

  /**
   * Every run: 200 `text/event-stream`; each event valid under 0.0.59's own `EventSchemas`;
   * every event passed the client's pipeline (verifier included), with nothing Palaver sent
   * stripped by its parse; RUN_STARTED first, one terminal event last.
   */
  expectEveryRunValid() {
    expect(this.runs.length).toBeGreaterThan(0);
    for (const record of this.runs) {
      const where = `run ${record.runId}: ${sequence(record)}`;
      expect(record.status, where).toBe(200);
      expect(record.contentType, where).toMatch(/^text\/event-stream/);
      for (const event of record.events) {
        const checked = EventSchemas.safeParse(event);
        expect(checked.success, `${where}: ${JSON.stringify(event)} → ${checked.error?.message}`).toBe(true);
      }
      expect(record.parsed.map((event) => event.type), `${where}: the client's pipeline passed every event on`).toEqual(
        record.events.map((event) => event.type),
      );
      // Zod strips what a 0.0.59 schema does not know (outside passthrough objects): each
      // event the client handed on still holds all that Palaver sent.
      record.events.forEach((event, n) => {
        expect(record.parsed[n], `${where}: 0.0.59 kept all of ${event.type}`).toMatchObject(event);
      });
      expect(record.warnings, where).toEqual([]);
      expect(record.events[0]?.type, where).toBe("RUN_STARTED");
      expect(record.events[0]?.runId, where).toBe(record.runId);
      const ends = record.events.filter((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");
      expect(ends, `${where}: one terminal event, the last`).toHaveLength(1);
      expect(record.events.at(-1), where).toBe(ends[0]);
    }
  }
}

/** A resumed run's first event after RUN_STARTED: the interrupted call's result, string content. */
function expectResultFirst(record: Run0059, toolCallId: string) {
  const [started, result] = record.events;
  expect(started.type, sequence(record)).toBe("RUN_STARTED");
  expect(result?.type, `the resumed run first answers the call: ${sequence(record)}`).toBe("TOOL_CALL_RESULT");
  expect(result.toolCallId).toBe(toolCallId);
  expect(typeof result.content, "0.0.59 takes string tool content only").toBe("string");
  return result;
}

function expectSuccess(record: Run0059) {
  const last = terminal(record);
  expect(last.type, sequence(record)).toBe("RUN_FINISHED");
  expect(last.outcome?.type ?? "success", sequence(record)).toBe("success");
  expect(record.finished?.outcome, "the client saw a success").toBe("success");
}

test("0.0.59: a plain run streams the reply and ends in a success the client accepts", async ({ request }) => {
  const { token } = await signUpWithToken(request);
  const client = new CopilotKitParser(aguiUrl, token);
  const agent = client.agent();

  const said = await client.say(agent, "AG-UI 0.0.59: say hello");
  expect(streamedText(said)).toBe("AG-UI 0.0.59: hello from Palaver.");
  expectSuccess(said);
  expect(agent.pendingInterrupts).toEqual([]);
  expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "AG-UI 0.0.59: hello from Palaver." });
  // What 0.0.59 sends (and Palaver takes): no protocolVersion, tools/context/forwardedProps always.
  expect(said.request).not.toHaveProperty("protocolVersion");
  expect(said.request).toMatchObject({ tools: [], context: [], forwardedProps: {} });

  client.expectEveryRunValid();
});

test("0.0.59: a choice ask ends in an interrupt the client accepts; a wrong answer is a RUN_ERROR, the right one goes on to the reply", async ({
  request,
}) => {
  const { token } = await signUpWithToken(request);
  const client = new CopilotKitParser(aguiUrl, token);
  const agent = client.agent();

  const asked = await client.say(agent, "AG-UI 0.0.59: pick a plan");
  const interrupt = theInterrupt(asked);
  expect(interrupt.reason).toBe("input_required");
  expect(interrupt.metadata?.palaver?.kind).toBe("choice");
  const call = eventsOf(asked, "TOOL_CALL_START").find((event) => event.toolCallId === interrupt.toolCallId);
  expect(call?.toolCallName, sequence(asked)).toBe("ask_choice");
  // 0.0.59's own view of it: the subscriber's outcome, and the agent's pending interrupts.
  expect(asked.finished).toMatchObject({ outcome: "interrupt", interrupts: [{ id: interrupt.id }] });
  expect(agent.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt.id]);
  // Like 1.0, the client will not send a new message past a pending interrupt.
  await expect(agent.runAgent({ runId: `run-${randomUUID()}` })).rejects.toThrow(/pending interrupt/);

  const wrong = await client.run(agent, {
    resume: [
      { interruptId: interrupt.id, status: "resolved", payload: { action: "accept", content: { selected: ["platinum"] } } },
    ],
  });
  expect(wrong.events.map((event) => event.type), sequence(wrong)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(terminal(wrong).code).toBe("invalid_answer");
  expect(wrong.finished).toBeUndefined();
  expect(agent.pendingInterrupts.map((pending) => pending.id), "RUN_ERROR leaves the interrupt pending").toEqual([
    interrupt.id,
  ]);

  const answered = await client.run(agent, {
    resume: [
      { interruptId: interrupt.id, status: "resolved", payload: { action: "accept", content: { selected: ["team"] } } },
    ],
  });
  expect(answered.request.resume, "0.0.59 sends resume as given").toEqual([
    { interruptId: interrupt.id, status: "resolved", payload: { action: "accept", content: { selected: ["team"] } } },
  ]);
  const result = expectResultFirst(answered, interrupt.toolCallId as string);
  expect(result.content).toContain("team");
  expect(streamedText(answered)).toBe("AG-UI 0.0.59: you are on the Team plan.");
  expectSuccess(answered);
  expect(agent.pendingInterrupts).toEqual([]);
  // The client's thread (from Palaver's snapshot): the call's answer, then the reply.
  const tool = agent.messages.findIndex((message) => message.role === "tool" && message.toolCallId === interrupt.id);
  expect(tool, JSON.stringify(agent.messages)).toBeGreaterThan(0);
  expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "AG-UI 0.0.59: you are on the Team plan." });

  client.expectEveryRunValid();
});

test("0.0.59: the app's own tool ends the run as a tool_call interrupt, and the resume's payload reaches the model", async ({
  request,
}) => {
  const { token } = await signUpWithToken(request);
  const client = new CopilotKitParser(aguiUrl, token);
  const agent = client.agent();
  const tools = [
    {
      name: "pick_colour",
      description: "Asks the app's user for a colour",
      parameters: { type: "object", properties: { of: { type: "string" } }, required: ["of"] },
    },
  ];

  const called = await client.say(agent, "AG-UI 0.0.59: ask the app for a colour", { tools });
  const interrupt = theInterrupt(called);
  expect(interrupt.reason).toBe("tool_call");
  expect(called.finished?.outcome).toBe("interrupt");
  const start = eventsOf(called, "TOOL_CALL_START").find((event) => event.toolCallId === interrupt.toolCallId);
  expect(start?.toolCallName, sequence(called)).toBe("pick_colour");

  const answered = await client.run(agent, {
    tools,
    resume: [{ interruptId: interrupt.id, status: "resolved", payload: { colour: "green" } }],
  });
  const result = expectResultFirst(answered, interrupt.toolCallId as string);
  expect(JSON.parse(result.content)).toEqual({ colour: "green" });
  expect(streamedText(answered)).toBe("AG-UI 0.0.59: the app says the sea is green.");
  expectSuccess(answered);

  client.expectEveryRunValid();
});

test("the 0.0.59 harness fails what CopilotKit's parser refuses, though 1.0 takes it", async () => {
  const frames = (events: object[]) => events.map((event, n) => `id: r.${n}\ndata: ${JSON.stringify(event)}\n\n`).join("");
  const canned = (events: object[]) => async () =>
    new Response(frames(events), { status: 200, headers: { "content-type": "text/event-stream" } });
  const runStarted = { type: "RUN_STARTED", threadId: "t", runId: "r" };
  const finished = (extra: object) => ({ type: "RUN_FINISHED", threadId: "t", runId: "r", ...extra });
  // Each with the zod message 0.0.59's SSE parser throws.
  const refusedBy0059: [WireEvent, RegExp][] = [
    [finished({ outcome: { type: "cancelled" } }), /Invalid discriminator value. Expected 'success' \| 'interrupt'/],
    [
      finished({ outcome: { type: "success", pendingToolCallIds: ["c1"] } }),
      /Unrecognized key\(s\) in object: 'pendingToolCallIds'/,
    ],
    [
      { type: "TOOL_CALL_RESULT", messageId: "m", toolCallId: "c1", content: [{ type: "text", text: "x" }] },
      /Expected string, received array/,
    ],
  ];
  for (const [event, message] of refusedBy0059) {
    expect(EventSchemas10.safeParse(event).success, `1.0 takes ${JSON.stringify(event)}`).toBe(true);
    const events = event.type === "RUN_FINISHED" ? [runStarted, event] : [runStarted, event, finished({})];
    const client = new CopilotKitParser(aguiUrl, "-", canned(events));
    await expect(client.run(client.agent("t"), { runId: "r" }), JSON.stringify(event)).rejects.toThrow(message);
  }
  // What 0.0.59 does not know inside a non-passthrough object it drops without a word: the
  // harness still notices.
  const extra = { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: "x", extra: 1 }] };
  const stripped = new CopilotKitParser(aguiUrl, "-", canned([runStarted, extra, finished({})]));
  await stripped.run(stripped.agent("t"), { runId: "r" });
  expect(() => stripped.expectEveryRunValid()).toThrow(/0.0.59 kept all of MESSAGES_SNAPSHOT/);
  // The verifier: content for a message never started.
  const orphan = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "x" };
  const badOrder = new CopilotKitParser(aguiUrl, "-", canned([runStarted, orphan, finished({})]));
  await expect(badOrder.run(badOrder.agent("t"), { runId: "r" })).rejects.toThrow(/No active text message found/);
  // And the same stream well-formed passes.
  const fine = new CopilotKitParser(aguiUrl, "-", canned([runStarted, finished({ outcome: { type: "success" } })]));
  expect((await fine.run(fine.agent("t"), { runId: "r" })).finished?.outcome).toBe("success");
  fine.expectEveryRunValid();
});
