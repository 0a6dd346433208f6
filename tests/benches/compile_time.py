#!/usr/bin/env python3
"""Rebuild time of 50 `#[tool]`s against the same 50 tools written with rmcp's macros.

Generates three throwaway crates in a temporary directory, each with 50 tools of the shared
`search_files` shape (per tool: the arguments struct, its options struct and its mode enum):

  dsh    `#[derive(ToolArgs)]` types and `#[tool]` functions (this repository, by path)
  rmcp   `serde` + `schemars` derives and rmcp's `#[tool_router]` / `#[tool]`
  plain  the same structs with `serde` + `schemars` derives and no tool macros (context only)

Each crate is built once (dependencies included, dev profile), then `src/lib.rs` is touched and
the crate rebuilt `--runs` times; the median rebuild time is reported, and the ratio dsh / rmcp
(target: <= 1.0). Incremental compilation is off (`CARGO_INCREMENTAL=0`) unless `--incremental`
is given: touching a file changes nothing, so an incremental rebuild would reuse every query and
measure almost nothing of the macros' cost. Run it on an otherwise idle machine; the crates build
one after another.

    python3 tests/benches/compile_time.py [--tools 50] [--runs 5] [--keep DIR]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RMCP_VERSION = "3.11"


def dsh_tool(i: int) -> str:
    return f'''
#[derive(ToolArgs)]
#[tool_args(rename_all = "lowercase")]
pub enum Mode{i} {{
    /// Match the text as written.
    Literal,
    /// Match a regular expression.
    Regex,
}}

#[derive(ToolArgs)]
pub struct SearchOptions{i} {{
    /// Follow symbolic links.
    pub follow_links: bool,
    /// How deep to descend.
    pub depth: Option<u32>,
}}

#[derive(ToolArgs)]
pub struct SearchArgs{i} {{
    /// Text or regex to look for.
    #[arg(min_length = 1)]
    pub pattern: String,
    /// Directory to search from.
    pub path: String,
    /// How many matches to return at most.
    #[arg(minimum = 1, maximum = 10_000)]
    pub max_results: Option<u32>,
    /// Whether case matters.
    pub case_sensitive: Option<bool>,
    /// Globs of the files to search.
    pub include: Option<Vec<String>>,
    /// How to match.
    pub mode: Option<Mode{i}>,
    /// Walk options.
    pub options: Option<SearchOptions{i}>,
}}

/// Search files for a pattern.
#[tool(name = "search_files_{i}")]
pub async fn search_files_{i}(args: SearchArgs{i}) -> String {{
    args.path
}}
'''


def serde_types(i: int) -> str:
    return f'''
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode{i} {{
    /// Match the text as written.
    Literal,
    /// Match a regular expression.
    Regex,
}}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchOptions{i} {{
    /// Follow symbolic links.
    pub follow_links: bool,
    /// How deep to descend.
    pub depth: Option<u32>,
}}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs{i} {{
    /// Text or regex to look for.
    #[schemars(length(min = 1))]
    pub pattern: String,
    /// Directory to search from.
    pub path: String,
    /// How many matches to return at most.
    #[schemars(range(min = 1, max = 10_000))]
    pub max_results: Option<u32>,
    /// Whether case matters.
    pub case_sensitive: Option<bool>,
    /// Globs of the files to search.
    pub include: Option<Vec<String>>,
    /// How to match.
    pub mode: Option<Mode{i}>,
    /// Walk options.
    pub options: Option<SearchOptions{i}>,
}}
'''


def rmcp_method(i: int) -> str:
    return f'''
    /// Search files for a pattern.
    #[tool(name = "search_files_{i}")]
    async fn search_files_{i}(&self, Parameters(args): Parameters<SearchArgs{i}>) -> String {{
        args.path
    }}
'''


def crates(tools: int) -> dict:
    dsh_lib = "#![allow(dead_code)]\nuse dsh_tools::{ToolArgs, tool};\n" + "".join(
        dsh_tool(i) for i in range(tools)
    )
    rmcp_lib = (
        "#![allow(dead_code)]\n"
        "use rmcp::{handler::server::{router::tool::ToolRouter, wrapper::Parameters}, tool, tool_router};\n"
        + "".join(serde_types(i) for i in range(tools))
        + "\n#[derive(Clone)]\npub struct Server {\n    tool_router: ToolRouter<Self>,\n}\n\n"
        + "impl Server {\n    pub fn new() -> Self {\n        Self { tool_router: Self::tool_router() }\n    }\n}\n\n"
        + "#[tool_router]\nimpl Server {"
        + "".join(rmcp_method(i) for i in range(tools))
        + "}\n"
    )
    plain_lib = "#![allow(dead_code)]\n" + "".join(serde_types(i) for i in range(tools))
    serde_deps = (
        'serde = { version = "1", features = ["derive"] }\n'
        'schemars = { version = "1", features = ["derive"] }\n'
    )
    return {
        "dsh": (f'dsh-tools = {{ path = "{REPO / "dsh-tools"}" }}\n', dsh_lib),
        "rmcp": (f'rmcp = "{RMCP_VERSION}"\n' + serde_deps, rmcp_lib),
        "plain": (serde_deps, plain_lib),
    }


def write_crate(root: Path, name: str, deps: str, lib: str) -> Path:
    crate = root / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "bench-{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f"[dependencies]\n{deps}\n[workspace]\n"
    )
    (crate / "src" / "lib.rs").write_text(lib)
    # Use the repository's pinned toolchain in the throwaway crates too.
    shutil.copy(REPO / "rust-toolchain.toml", crate / "rust-toolchain.toml")
    return crate


def build(crate: Path, incremental: bool) -> float:
    start = time.perf_counter()
    subprocess.run(
        ["cargo", "build", "--quiet"],
        cwd=crate,
        check=True,
        env={
            **os.environ,
            "CARGO_TARGET_DIR": str(crate / "target"),
            "CARGO_INCREMENTAL": "1" if incremental else "0",
        },
    )
    return time.perf_counter() - start


def rebuild_times(crate: Path, runs: int, incremental: bool) -> list:
    build(crate, incremental)  # dependencies and a first full build
    times = []
    for _ in range(runs):
        (crate / "src" / "lib.rs").touch()
        times.append(build(crate, incremental))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="generate into this directory and keep it")
    parser.add_argument("--incremental", action="store_true", help="keep incremental compilation on")
    args = parser.parse_args()

    root = args.keep or Path(tempfile.mkdtemp(prefix="dsh-compile-time-"))
    root.mkdir(parents=True, exist_ok=True)
    medians = {}
    for name, (deps, lib) in crates(args.tools).items():
        crate = write_crate(root, name, deps, lib)
        times = rebuild_times(crate, args.runs, args.incremental)
        medians[name] = statistics.median(times)
        print(f"{name:>5}: rebuild median {medians[name]:.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})")
    print(f"ratio dsh / rmcp: {medians['dsh'] / medians['rmcp']:.2f}  (target <= 1.0)")
    print(f"macro cost over plain structs: dsh {medians['dsh'] - medians['plain']:+.2f} s, "
          f"rmcp {medians['rmcp'] - medians['plain']:+.2f} s")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
