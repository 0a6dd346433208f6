"""Calls one tool of a dsh-tools MCP server over streamable HTTP with the official Python MCP
SDK's client, sending a W3C trace context in the request's `_meta` (SEP-414), and prints what
the call returned.

    trace_client.py <url> <token> <tool> <traceparent> <tracestate>

The report is one JSON object on stdout; the Rust test asserts on it and on the server's span.
"""

import json
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

DEADLINE = 20


async def main():
    url, token, tool, traceparent, tracestate = sys.argv[1:6]
    meta = {"traceparent": traceparent, "tracestate": tracestate}
    with anyio.fail_after(DEADLINE):
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, mode="legacy") as client:
                result = await client.call_tool(tool, {"text": "hi"}, meta=meta)
    text = "".join(block.text for block in result.content if block.type == "text")
    print(json.dumps({"isError": result.is_error, "text": text}))


if __name__ == "__main__":
    anyio.run(main)
