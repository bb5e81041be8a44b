"""An MCP server with a tool whose time only the person may give, for Palaver's argument-ask
test (stdio): the `time` property carries `"x-palaver-person-only": true` in its schema.

Built on the official Python SDK (the `mcp` package mcp-server-time brings along).
"""

from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer

server = MCPServer("booking")


@server.tool()
def book_table(
    place: Annotated[str, Field(description="The restaurant")],
    time: Annotated[
        str,
        Field(
            description="When the table is for, as HH:mm",
            pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
            json_schema_extra={"x-palaver-person-only": True},
        ),
    ],
) -> str:
    """Books a table."""
    return f"Booked {place} at {time}."


if __name__ == "__main__":
    server.run()
