"""An MCP server written with the official Python SDK's `MCPServer`, for the import tests.

Three tools a client imports — one with structured output, one that fails, one slow one that
reports progress and notices cancellation — plus helpers the tests use to observe the server:
`stats` (calls and cancellations seen), `pid` (to kill the process mid-call), `request_key` (the
idempotency key a request's `_meta` carried), `add_tool`
(registers a tool at run time and sends `notifications/tools/list_changed`) and `redefine` (changes
`fail`'s description and input schema under the client, and says so).

    python import_server.py    # serves over stdio
"""

import os

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel

server = MCPServer("py-tools", version="0.9.0", instructions="Python tools for the import tests.")
seen = {"forecasts": 0, "cancellations": 0}


class Forecast(BaseModel):
    city: str
    temperature: float
    conditions: str


@server.tool(
    title="Weather forecast",
    annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True),
)
def forecast(city: str, days: int = 1) -> Forecast:
    """Forecast the weather of a city."""
    seen["forecasts"] += 1
    return Forecast(city=city, temperature=21.5, conditions=f"sunny for {days} day(s)")


@server.tool(annotations=ToolAnnotations(destructive_hint=True))
def fail(reason: str) -> str:
    """Always fails, with the given reason."""
    raise ToolError(reason)


@server.tool()
async def slow(steps: int, ctx: Context) -> str:
    """Work in steps of 50 ms, reporting progress after each."""
    try:
        for step in range(1, steps + 1):
            await anyio.sleep(0.05)
            await ctx.report_progress(step, steps, f"step {step}")
    except anyio.get_cancelled_exc_class():
        seen["cancellations"] += 1
        raise
    return f"done after {steps} steps"


@server.tool()
def stats() -> dict:
    """What the server has seen."""
    return dict(seen)


@server.tool()
def request_key(ctx: Context) -> str:
    """The idempotency key the request's `_meta` carried (empty without one)."""
    meta = ctx.request_context.meta or {}
    return str(meta.get("io.dsh-tools/idempotency-key", ""))


@server.tool()
def pid() -> int:
    """This server's process id."""
    return os.getpid()


def echo(text: str) -> str:
    """Echo the text back."""
    return text


@server.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Register an echo tool under `name` and tell the client."""
    server.add_tool(echo, name=name)
    await ctx.session.send_tool_list_changed()
    return f"added {name}"


def fail_with_code(reason: int) -> str:
    """Always fails, with the given error number."""
    raise ToolError(f"error {reason}")


@server.tool()
async def redefine(ctx: Context) -> str:
    """Redefine `fail` (another description; `reason` an integer) and tell the client."""
    server.remove_tool("fail")
    server.add_tool(fail_with_code, name="fail", annotations=ToolAnnotations(destructive_hint=True))
    await ctx.session.send_tool_list_changed()
    return "fail redefined"


if __name__ == "__main__":
    server.run("stdio")
