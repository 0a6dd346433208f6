"""An MCP server written with the official Python SDK's `MCPServer` whose tool asks its client's
user for input mid-call (`ctx.elicit`), for the import tests of elicitation.

    python elicit_server.py    # serves over stdio
"""

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

server = MCPServer("py-asking", version="0.1.0")


class Confirmation(BaseModel):
    confirm: bool
    note: str = ""


@server.tool()
async def delete_file(path: str, ctx: Context) -> str:
    """Delete a file once the user confirms."""
    answer = await ctx.elicit(f"Really delete {path}?", Confirmation)
    if answer.action == "accept":
        data = answer.data
        verb = "deleted" if data.confirm else "kept"
        return f"{verb} {path} (note: {data.note})"
    return f"{answer.action}: kept {path}"


if __name__ == "__main__":
    server.run("stdio")
