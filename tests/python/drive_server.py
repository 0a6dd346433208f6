"""Drives a dsh-tools MCP server with the official Python MCP SDK's client and prints what it saw.

    drive_server.py stdio <mode> <command> [args...]
    drive_server.py http <mode> <url> <token>

<mode> is "legacy" (the initialize handshake) or "auto" (the SDK's default: server/discover,
per-request protocol). The report is one JSON object on stdout; the Rust test asserts on it.
"""

import json
import sys

import anyio
import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

WORKLOAD = {
    "valid": {
        "pattern": "fn main",
        "path": "/src",
        "max_results": 50,
        "case_sensitive": False,
        "include": ["*.rs", "*.toml"],
        "options": {"follow_links": True, "depth": 4},
    },
    "invalid": {
        "path": "/src",
        "max_results": "50",
        "case_sensitive": False,
        "include": ["*.rs", "*.toml"],
        "options": {"follow_links": True, "depth": 4},
        "mode": "fuzzy",
    },
}

DEADLINE = 20


def dump(model):
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def call_report(result):
    return {
        "isError": result.is_error,
        "content": [dump(block) for block in result.content],
        "structuredContent": result.structured_content,
    }


async def list_all(client):
    tools, pages, cursor = [], 0, None
    while True:
        page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        pages += 1
        tools.extend(dump(tool) for tool in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return tools, pages


async def scenario(client, mode, notifications):
    report = {"protocolVersion": client.protocol_version}
    info = client.server_info
    report["serverInfo"] = dump(info) if info is not None else None
    report["instructions"] = client.instructions
    report["tools"], report["pages"] = await list_all(client)

    report["valid"] = call_report(await client.call_tool("search_files", WORKLOAD["valid"]))
    report["invalid"] = call_report(await client.call_tool("search_files", WORKLOAD["invalid"]))
    report["unknown"] = call_report(await client.call_tool("nope", {}))
    report["denied"] = call_report(await client.call_tool("forbidden", {}))
    report["media"] = call_report(await client.call_tool("media", {}))

    progress = []

    async def on_progress(value, total, message):
        progress.append([value, total, message])

    done = await client.call_tool("slow", {"steps": 3, "delay_ms": 5}, progress_callback=on_progress)
    report["progressCall"] = call_report(done)
    report["progress"] = progress

    # Cancel a call mid-way: the SDK sends notifications/cancelled when the caller gives up.
    started = anyio.Event()

    async def first_report(value, total, message):
        started.set()

    async with anyio.create_task_group() as group:
        scope = anyio.CancelScope()

        async def long_call():
            with scope:
                await client.call_tool(
                    "slow", {"steps": 100000, "delay_ms": 5}, progress_callback=first_report
                )

        group.start_soon(long_call)
        with anyio.fail_after(DEADLINE):
            await started.wait()
        scope.cancel()
    seen = 0
    with anyio.fail_after(DEADLINE):
        while seen == 0:
            seen = json.loads((await client.call_tool("cancellations", {})).content[0].text)
            await anyio.sleep(0.01)
    report["cancellationsSeenByTheBody"] = seen

    # A registration on the server side: list_changed, then the new tool is listed.
    if mode == "legacy":
        await client.call_tool("add_tool", {"name": "late_tool"})
        with anyio.fail_after(DEADLINE):
            while not any(
                isinstance(message, types.ToolListChangedNotification) for message in notifications
            ):
                await anyio.sleep(0.01)
    else:
        async with client.listen(tools_list_changed=True) as subscription:
            await client.call_tool("add_tool", {"name": "late_tool"})
            with anyio.fail_after(DEADLINE):
                async for event in subscription:
                    break
    report["listChanged"] = True
    tools, _ = await list_all(client)
    report["toolsAfterRegistration"] = [tool["name"] for tool in tools]
    return report


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}


async def refused(url, headers):
    """Whether the SDK's client could connect with these headers, and the HTTP status a plain
    initialize POST with them gets."""
    report = {"sdkError": None}
    try:
        with anyio.fail_after(DEADLINE):
            async with httpx2.AsyncClient(headers=headers) as http:
                async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
                    await client.list_tools()
    except Exception as error:  # the SDK raises exception groups from its task groups
        report["sdkError"] = repr(error)
    async with httpx2.AsyncClient(headers=headers) as http:
        response = await http.post(
            url,
            json=INITIALIZE,
            headers={"Accept": "application/json, text/event-stream"},
        )
        report["status"] = response.status_code
        report["body"] = response.text
    return report


async def main():
    kind, mode = sys.argv[1], sys.argv[2]
    notifications = []

    async def on_message(message):
        notifications.append(message)

    if kind == "stdio":
        server = StdioServerParameters(command=sys.argv[3], args=sys.argv[4:])
        async with Client(server, mode=mode, message_handler=on_message) as client:
            report = await scenario(client, mode, notifications)
    else:
        url, token = sys.argv[3], sys.argv[4]
        auth = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=auth) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, mode=mode, message_handler=on_message) as client:
                report = await scenario(client, mode, notifications)
        report["foreignOrigin"] = await refused(url, {**auth, "Origin": "http://evil.example"})
        report["missingToken"] = await refused(url, {})
        report["wrongToken"] = await refused(url, {"Authorization": "Bearer wrong"})
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main)
