// An MCP server (stdio) whose one tool asks the person a question before it answers, for the
// `palaver mcp try` test: the tool says what the question came to. It is marked read-only, so
// the probe calls it by default. Built on the official SDK that the servers in package.json
// bring along.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "asking", version: "1.0.0" });

server.registerTool(
  "greet",
  { description: "Asks who is there, then greets them", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => {
    const answer = await server.server.elicitInput({
      message: "Who is there?",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", title: "Name", default: "Ada" } },
        required: ["name"],
      },
    });
    const text = answer.action === "accept" ? `Hello, ${answer.content.name}.` : `No one answered (${answer.action}).`;
    return { content: [{ type: "text", text }] };
  },
);

await server.connect(new StdioServerTransport());
