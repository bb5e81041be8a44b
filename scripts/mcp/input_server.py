"""An MCP server (stdio) whose tools need the person's input before they finish, for Palaver's
input-required tests. Its questions are resolvers (`Resolve` / `Elicit`): under the 2026-07-28
revision the official Python SDK answers the call with `input_required` and the questions, and
finishes when the call comes again with the answers and its sealed state; under 2025-11-25 and
before it asks them as standalone `elicitation/create` requests instead.

The state is sealed under a fixed key, so a call answered after the server (or Palaver) restarted
still finishes: the state is all the server needs.

Built on the official Python SDK (the `mcp` package in scripts/mcp/requirements.txt).
"""

from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.apps import EXTENSION_ID as UI_EXTENSION
from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.extension import Extension
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.request_state import RequestStateSecurity
from mcp.types import CallToolResult, ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult, TextContent, ToolAnnotations

# A test key, not a secret: the server holds nothing worth protecting.
STATE_KEY = b"palaver-test-input-server-state!"


class Guest(BaseModel):
    name: str = Field(default="Ada", title="Name", description="Who the table is for")


class Seating(BaseModel):
    room: str = Field(title="Room", json_schema_extra={"enum": ["garden", "terrace", "hall"]})
    guests: int = Field(title="Guests", ge=1, le=12)


class Visit(BaseModel):
    day: str = Field(title="Day", json_schema_extra={"format": "date"})


def ask_guest() -> Elicit[Guest]:
    return Elicit("Who is the table for?", Guest)


def ask_seating(guest: Annotated[Guest, Resolve(ask_guest)]) -> Elicit[Seating]:
    return Elicit(f"Where should {guest.name} sit, and with how many?", Seating)


def ask_day() -> Elicit[Visit]:
    return Elicit("Which day?", Visit)


class AppDrawnQuestions(Extension):
    """Declares that this server's questions may name its app to draw them (ext-apps' draft of
    app-rendered elicitations, SEP-3118), under the MCP Apps extension."""

    identifier = UI_EXTENSION

    def settings(self) -> dict:
        return {"elicitation": {}}


# Where a tool leaves the `_meta` of the requests it returns in `inputRequests`, keyed as they are.
REQUEST_META = "palaver.test/inputRequestMeta"


async def keep_request_meta(ctx, call_next):
    """Puts back the `_meta` of requests in `inputRequests`, where the draft of app-rendered
    elicitations names the app: the SDK checks every result against the revision's schema, which
    has no `_meta` there, and drops it. The tool leaves it on the result's own `_meta`, which the
    check keeps."""
    result = await call_next(ctx)
    if ctx.method == "tools/call" and isinstance(result, dict) and isinstance(result.get("_meta"), dict):
        for key, meta in (result["_meta"].pop(REQUEST_META, None) or {}).items():
            result["inputRequests"][key]["params"]["_meta"] = meta
        if not result["_meta"]:
            del result["_meta"]
    return result


server = MCPServer(
    "desk",
    request_state_security=RequestStateSecurity(keys=[STATE_KEY], ttl=3600),
    extensions=[AppDrawnQuestions()],
    middleware=[keep_request_meta],
)


@server.tool()
def greet(guest: Annotated[ElicitationResult[Guest], Resolve(ask_guest)]) -> str:
    """Asks who is there, then greets them."""
    if isinstance(guest, AcceptedElicitation):
        return f"Hello, {guest.data.name}."
    return f"No one answered ({guest.action})."


@server.tool()
def book_table(
    guest: Annotated[Guest, Resolve(ask_guest)],
    seating: Annotated[Seating, Resolve(ask_seating)],
) -> str:
    """Books a table: asks who it is for, then where and for how many (a second round)."""
    return f"Booked the {seating.room} for {guest.name}, {seating.guests} guests."


@server.tool()
def plan_visit(
    guest: Annotated[Guest, Resolve(ask_guest)],
    visit: Annotated[Visit, Resolve(ask_day)],
) -> str:
    """Plans a visit: asks who and which day at once (two questions in one round)."""
    return f"{guest.name} visits on {visit.day}."


@server.tool()
def opening_hours() -> str:
    """Says when the restaurant is open (no questions)."""
    return "Open from noon to eleven."


@server.tool(meta={"ui": {"visibility": ["app"]}})
def refresh_seating() -> str:
    """Redraws the seating plan (an MCP Apps tool for its view alone: the model is not offered it)."""
    return "Redrawn."


# The seating chart's MCP App: a view that declares what it reaches and asks for the clipboard.
SEATING_VIEW = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Seating</title></head>
<body><p id="plan">Seating plan</p></body></html>
"""


@server.resource(
    "ui://desk/seating.html",
    mime_type="text/html;profile=mcp-app",
    meta={"ui": {"csp": {"connectDomains": ["https://api.desk.example"],
                         "resourceDomains": ["https://cdn.desk.example", "https://bad.example; script-src *"]},
                 "permissions": {"clipboardWrite": {}}, "prefersBorder": True}},
)
def seating_view() -> str:
    return SEATING_VIEW


@server.tool(annotations=ToolAnnotations(readOnlyHint=True), meta={"ui": {"resourceUri": "ui://desk/seating.html"}})
def seating_chart() -> str:
    """Shows the seating chart (an MCP App draws it; it only reads)."""
    return "Two tables are free."


@server.tool(meta={"ui": {"visibility": ["model"]}})
def close_desk() -> str:
    """Closes the desk for the day (the model's alone: an app may not call it)."""
    return "Closed."


# The seat picker: an MCP App that answers the question of `pick_seat` (a hand-written view: no
# published App SDK answers elicitations yet). It declares it answers them, takes the host's
# `elicitation/create` and returns an `ElicitResult`: a seat, "Not now" (decline), or — to show
# the host checks what it sends — a seat the server never offered.
SEAT_PICKER_VIEW = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Seat picker</title></head>
<body>
<p id="question">Waiting for the question…</p>
<div id="seats"></div>
<button id="decline" type="button" hidden>Not now</button>
<button id="unoffered" type="button" hidden>Seat Z9</button>
<script>
let next = 1;
const waiting = {};
const post = (message) => window.parent.postMessage(message, "*");
const request = (method, params) => {
  const id = next++;
  post({jsonrpc: "2.0", id, method, params});
  return new Promise((resolve) => { waiting[id] = resolve; });
};
const answer = (id, result) => {
  document.querySelectorAll("button").forEach((button) => { button.disabled = true; });
  post({jsonrpc: "2.0", id, result});
};
window.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.id !== undefined && !message.method && waiting[message.id]) {
    waiting[message.id](message);
    delete waiting[message.id];
    return;
  }
  if (message.method !== "elicitation/create") return;
  const params = message.params;
  document.querySelectorAll("button").forEach((button) => { button.disabled = false; });
  document.getElementById("question").textContent = params.message;
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (const seat of params.requestedSchema.properties.seat.enum) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Seat " + seat;
    button.onclick = () => answer(message.id, {action: "accept", content: {seat}});
    seats.append(button);
  }
  const decline = document.getElementById("decline");
  decline.hidden = false;
  decline.onclick = () => answer(message.id, {action: "decline"});
  const unoffered = document.getElementById("unoffered");
  unoffered.hidden = false;
  unoffered.onclick = () => answer(message.id, {action: "accept", content: {seat: "Z9"}});
});
request("ui/initialize", {
  protocolVersion: "2026-01-26",
  appInfo: {name: "seat-picker", version: "1.0.0"},
  appCapabilities: {elicitation: {}},
}).then(() => post({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}}));
</script>
</body></html>
"""

SEAT_PICKER = "ui://desk/seat-picker.html"
SEATS = ["A1", "A2", "B4"]


@server.resource(SEAT_PICKER, mime_type="text/html;profile=mcp-app")
def seat_picker_view() -> str:
    return SEAT_PICKER_VIEW


def draws_app_questions(ctx: Context) -> bool:
    """Whether the client said an app may draw this server's questions (the draft's negotiation)."""
    capabilities = ctx.client_capabilities
    ui = (capabilities.extensions or {}).get(UI_EXTENSION) if capabilities else None
    return bool(ui) and "elicitation" in ui and capabilities.elicitation is not None


@server.tool()
def pick_seat(ctx: Context) -> CallToolResult | InputRequiredResult:
    """Picks a seat: the seat picker app asks which, where the host draws apps."""
    answer = (ctx.input_responses or {}).get("seat")
    if isinstance(answer, ElicitResult):
        if answer.action == "accept" and answer.content and answer.content.get("seat") in SEATS:
            return CallToolResult(content=[TextContent(type="text", text=f"Seat {answer.content['seat']} is yours.")])
        return CallToolResult(content=[TextContent(type="text", text=f"No seat was picked ({answer.action}).")])
    question = ElicitRequestFormParams(
        message="Which seat would you like?",
        requested_schema={
            "type": "object",
            "properties": {"seat": {"type": "string", "title": "Seat", "enum": SEATS}},
            "required": ["seat"],
        },
    )
    drawn = {REQUEST_META: {"seat": {"ui": {"resourceUri": SEAT_PICKER}}}} if draws_app_questions(ctx) else None
    return InputRequiredResult(
        input_requests={"seat": ElicitRequest(params=question)}, request_state="seat", _meta=drawn
    )


if __name__ == "__main__":
    server.run()
