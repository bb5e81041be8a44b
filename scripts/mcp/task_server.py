"""An MCP server (stdio) that runs a call as a task, for Palaver's tasks tests: the 2026-07-28
tasks extension (`io.modelcontextprotocol/tasks`), served through the official Python SDK's
extension interface. `count_guests` answers with a task instead of a result; `tasks/get` reports
it working, then needing the person's input (`input_required`, answered with `tasks/update`),
then done; a count over 20 is asked again, under the same key. Each look at a task moves it one
step on, so the tests never depend on the time.
`count_forever`'s task works until it is cancelled, and `tally`'s until the file `TASK_RELEASE`
names exists (a test makes it), then ends with its result. Each task created, first looked at (so
the client has it) and cancelled is written to the file `TASK_LOG` names, for the tests to read.
Over stdio by default; with `PORT` set, over streamable HTTP on 127.0.0.1 (a server whose tasks
outlive Palaver's process).

Built on the official Python SDK (the `mcp` package in scripts/mcp/requirements.txt).
"""

import datetime
import os
import uuid
from typing import Any

from mcp_types import RequestParams

from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer

# How many looks a task stays working before it asks, and after the answer before it ends.
STEPS_BEFORE_ASKING = 2
STEPS_AFTER_ANSWER = 1

QUESTION = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "How many guests are coming?",
        "requestedSchema": {
            "type": "object",
            "properties": {"guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 50}},
            "required": ["guests"],
        },
    },
}


class TaskParams(RequestParams):
    task_id: str


class UpdateParams(RequestParams):
    task_id: str
    input_responses: dict[str, Any]


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def log(line: str) -> None:
    with open(os.environ["TASK_LOG"], "a") as file:
        file.write(line + "\n")


class Tasks(Extension):
    identifier = "io.modelcontextprotocol/tasks"

    def __init__(self) -> None:
        self.tasks: dict[str, dict[str, Any]] = {}

    def methods(self) -> list[MethodBinding]:
        return [
            MethodBinding("tasks/get", TaskParams, self.get),
            MethodBinding("tasks/update", UpdateParams, self.update),
            MethodBinding("tasks/cancel", TaskParams, self.cancel),
        ]

    def seed(self, task_id: str) -> dict[str, Any]:
        task = self.tasks[task_id]
        return {
            "taskId": task_id,
            "status": task["status"],
            "statusMessage": task["message"],
            "createdAt": task["created"],
            "lastUpdatedAt": now(),
            "ttlMs": 600_000,
            "pollIntervalMs": 100,
        }

    async def intercept_tool_call(self, params: Any, ctx: Any, call_next: Any) -> Any:
        if params.name not in ("count_guests", "count_forever", "tally"):
            return await call_next(ctx)
        task_id = uuid.uuid4().hex
        self.tasks[task_id] = {"status": "working", "message": "Looking at the list", "created": now(), "looks": 0,
                               "forever": params.name == "count_forever", "tally": params.name == "tally"}
        log(f"created {task_id}")
        return {"resultType": "task", **self.seed(task_id)}

    async def get(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        task = self.tasks.get(params.task_id)
        if task is None:
            return {"resultType": "complete", "taskId": params.task_id, "status": "failed", "createdAt": now(),
                    "lastUpdatedAt": now(), "ttlMs": None, "error": {"code": -32602, "message": "No such task."}}
        task["looks"] += 1
        if task["looks"] == 1:
            log(f"looked {params.task_id}")
        if task["forever"]:
            pass
        elif task["tally"]:
            if task["status"] == "working" and os.path.exists(os.environ["TASK_RELEASE"]):
                task["status"], task["message"], task["text"] = "completed", "Tallied", "12 replies."
        elif task["status"] == "working" and "guests" not in task and task["looks"] > STEPS_BEFORE_ASKING:
            task["status"], task["message"] = "input_required", "Waiting for the count"
        elif task["status"] == "working" and "guests" in task and task["looks"] > STEPS_AFTER_ANSWER:
            task["status"], task["message"] = "completed", "Counted"
        reply = {"resultType": "complete", **self.seed(params.task_id)}
        if task["status"] == "input_required":
            reply["inputRequests"] = {"count": QUESTION}
        if task["status"] == "completed":
            text = task.get("text") or f"{task['guests']} guests are coming."
            reply["result"] = {"content": [{"type": "text", "text": text}], "isError": False}
        return reply

    async def update(self, ctx: Any, params: UpdateParams) -> dict[str, Any]:
        task = self.tasks.get(params.task_id)
        answer = params.input_responses.get("count", {})
        if task is not None and task["status"] == "input_required":
            if answer.get("action") == "accept" and answer["content"]["guests"] > 20:
                # Asked again, under the same key, once the task has moved on.
                task["status"], task["message"], task["looks"] = "working", "Checking the count", 0
            elif answer.get("action") == "accept":
                task["guests"] = answer["content"]["guests"]
                task["status"], task["message"], task["looks"] = "working", "Counting", 0
            else:
                task["status"], task["message"] = "cancelled", f"No count ({answer.get('action')})"
        return {"resultType": "complete"}

    async def cancel(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        task = self.tasks.get(params.task_id)
        if task is not None and task["status"] not in ("completed", "failed", "cancelled"):
            task["status"], task["message"] = "cancelled", "Cancelled by the client"
            log(f"cancelled {params.task_id}")
        return {"resultType": "complete"}


server = MCPServer("tasks", extensions=[Tasks()])


@server.tool()
def count_guests() -> str:
    """Counts the guests (a long job: it runs as a task)."""
    return "Counted without a task."


@server.tool()
def count_forever() -> str:
    """Counts for ever (it runs as a task until it is cancelled)."""
    return "Counted without a task."


@server.tool()
def tally() -> str:
    """Tallies the replies (it runs as a task until the tests release it)."""
    return "Tallied without a task."


if __name__ == "__main__":
    if "PORT" in os.environ:
        server.run("streamable-http", host="127.0.0.1", port=int(os.environ["PORT"]))
    else:
        server.run()
