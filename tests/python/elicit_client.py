"""Calls a tool of a dsh-tools MCP server whose calls need approval, with the official Python MCP
SDK's client answering the server's elicitation requests, and prints what it saw.

    elicit_client.py <mode> <answer> <command> [args...]

<mode> is "legacy" (the initialize handshake) or "auto" (the SDK's default per-request
protocol). <answer> is how the client answers each elicitation request: "approve" or "deny"
(accept with that decision), "decline", "cancel", or "none" (no elicitation callback, so the
client does not declare the capability). The report is one JSON object on stdout: the protocol
the client speaks, the requests the client was sent (over a session as `elicitation/create`
requests, over the per-request protocol inside `InputRequiredResult`s, which the SDK's client
answers by retrying the call) and the call's result.
"""

import json
import sys

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

from drive_server import WORKLOAD, call_report, dump

DEADLINE = 20


async def main():
    mode, answer = sys.argv[1], sys.argv[2]
    server = StdioServerParameters(command=sys.argv[3], args=sys.argv[4:])
    requests = []

    async def on_elicit(context, params):
        # `_meta` is the transport's (rmcp relays the call's progress token); the test holds
        # the request's own fields.
        requests.append({key: value for key, value in dump(params).items() if key != "_meta"})
        if answer in ("approve", "deny"):
            return types.ElicitResult(action="accept", content={"decision": answer})
        return types.ElicitResult(action=answer)

    callback = None if answer == "none" else on_elicit
    async with Client(server, mode=mode, elicitation_callback=callback) as client:
        with anyio.fail_after(DEADLINE):
            result = await client.call_tool("search_files", WORKLOAD["valid"])
            # A call that does not ask is not held up by the approval of another.
            plain = await client.call_tool("cancellations", {})
        protocol = client.protocol_version
    report = {
        "protocol": protocol,
        "requests": requests,
        "result": call_report(result),
        "plain": call_report(plain),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main)
