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

from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from mcp.server.request_state import RequestStateSecurity
from mcp.types import ToolAnnotations

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


server = MCPServer("desk", request_state_security=RequestStateSecurity(keys=[STATE_KEY], ttl=3600))


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


if __name__ == "__main__":
    server.run()
