"""An MCP server written with the official Python SDK's `MCPServer` whose tools ask their client
for input through multi-round-trip requests (protocol 2026-07-28): they return an
`InputRequiredResult` and read the answers of the retry, for the import tests.

    python input_required_server.py    # serves over stdio

- `delete_file` asks one question (`confirm`, a boolean) and answers with what it got back.
- `always_asks` asks again on every attempt, whatever the answers.
"""

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

server = MCPServer("py-rounds", version="0.1.0")


def question(message):
    schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


@server.tool()
async def delete_file(path: str, ctx: Context) -> str | InputRequiredResult:
    """Delete a file once the user confirms."""
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        return InputRequiredResult(input_requests={"confirm": question(f"Really delete {path}?")}, request_state=f"asked about {path}")
    if answer.action == "accept" and answer.content and answer.content.get("confirm"):
        return f"deleted {path} ({ctx.request_state})"
    return f"{answer.action}: kept {path} ({ctx.request_state})"


@server.tool()
async def always_asks(ctx: Context) -> str | InputRequiredResult:
    """Never satisfied."""
    return InputRequiredResult(input_requests={"confirm": question("Once more?")}, request_state="again")


if __name__ == "__main__":
    server.run("stdio")
