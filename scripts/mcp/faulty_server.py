"""An MCP server that misbehaves on purpose, for Palaver's fault tests (stdio).

Built on the official Python SDK (the `mcp` package mcp-server-time brings along).
"""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("faulty")


@server.tool()
def crash() -> str:
    """Exits the server in the middle of the call."""
    os._exit(3)


@server.tool()
def flood(megabytes: int = 5) -> str:
    """Returns this many megabytes of text."""
    return "x" * (megabytes * 1024 * 1024)


if __name__ == "__main__":
    server.run()
