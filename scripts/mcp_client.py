"""Drives `budget mcp` with the official MCP Python SDK (package `mcp`,
installed by scripts/references.sh), as an agent host would: connects over
stdio (the SDK's automatic negotiation: a `server/discover` probe, then the
`initialize` handshake), declares one root, lists the tools, packs, counts,
and tries what a hostile or mistaken client would (paths outside the root,
an unknown argument, a budget over the result limit).

Usage: python mcp_client.py BUDGET_BINARY ROOT
Prints one JSON object with what it saw; exits 1 if any expectation fails.
"""

import asyncio
import json
import sys
import warnings
from pathlib import Path

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

warnings.simplefilter("ignore")


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "text", None) is not None)


async def main(binary: str, root: str) -> int:
    root_path = Path(root).resolve()

    async def list_roots(_context):
        from mcp_types import ListRootsResult, Root

        return ListRootsResult(roots=[Root(uri=root_path.as_uri(), name="project")])

    server = StdioServerParameters(
        command=binary,
        args=["mcp"],
        cwd=str(root_path),
        env={"HF_HUB_CACHE": str(root_path / ".no-hf-cache"), "XDG_CONFIG_HOME": str(root_path / ".no-config")},
    )
    seen = {}
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    async with Client(server, list_roots_callback=list_roots) as client:
        seen["protocol_version"] = client.session.protocol_version
        tools = (await client.list_tools()).tools
        seen["tools"] = sorted(t.name for t in tools)
        expect(seen["tools"] == ["check", "count", "pack"], "three tools")
        expect(all(t.annotations and t.annotations.read_only_hint for t in tools), "read-only annotations")

        packed = await client.call_tool("pack", {"budget": 2000, "counter": "ratios"})
        seen["pack_is_error"] = bool(packed.is_error)
        expect(not packed.is_error and text(packed).startswith("## TREE"), "pack returns a payload")

        counted = await client.call_tool("count", {"format": "json"})
        expect(not counted.is_error, "count works")

        outside = await client.call_tool("pack", {"paths": ["/etc"]})
        seen["outside"] = text(outside)
        expect(outside.is_error and "outside the sandbox" in text(outside), "/etc refused")
        expect("root:x:" not in text(outside), "nothing of /etc returned")

        for arguments in ({"budgett": 5}, {"args": ["-o", "../victim.txt"]}, {"budget": 10_000_000}):
            try:
                result = await client.call_tool("pack", arguments)
                refused = bool(result.is_error)
            except MCPError as error:
                refused = True
                seen.setdefault("errors", []).append(str(error))
            expect(refused, f"refused {arguments}")
    expect(not (root_path.parent / "victim.txt").exists(), "nothing written")
    seen["failures"] = failures
    print(json.dumps(seen))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
