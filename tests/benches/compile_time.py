#!/usr/bin/env python3
"""Rebuild time of a crate of 50 `#[tool]`s, registered, against the same 50 tools written with
rmcp's macros and routed.

Generates throwaway crates in a temporary directory, each with the same 50 tools:

  dsh    `#[derive(ToolArgs)]` types and `#[tool]` functions (this repository, by path), and
         `pub fn registry()` registering every tool in a `ToolRegistry` as the README shows
         (`registry.register(ReadFile0Tool)?`)
  rmcp   `serde` + `schemars` derives, rmcp's `#[tool_router]` / `#[tool]`, and `Server::new`
         building the router (`Self::tool_router()`), as rmcp's examples do
  plain  the same structs with `serde` + `schemars` derives and no tool macros (context only)

Optional crates for comparisons: `--baseline DIR` adds `dsh-base`, the dsh crate against another
checkout of this repository (a commit before a change, say), and `--unregistered` adds
`dsh-noreg`, the dsh crate without its `registry()` (what registering costs).

`--instructions` also counts, under callgrind, the instructions of each crate's own `rustc`
invocation (the one `cargo build -vv` / `cargo check -vv` runs after a touch, dependencies
built): a figure that does not move with the machine's load, where the wall medians on 2 shared
cores swing by tens of percent. The macros' expansion is part of it (the proc-macro runs inside
that `rustc`), so are type checking, borrow checking and code generation.

Two shapes of tool (`--shape`):

  four    a 4-field argument struct (a string, an optional integer, a bounded integer, a bool)
  search  the `search_files` shape: a 7-field struct with a nested options struct and a mode enum

Each crate is built and checked once (dependencies included, dev profile), then, round by round,
`src/lib.rs` of each crate is touched and the crate rebuilt with `cargo build`, then touched again
and checked with `cargo check`. The crates take turns going first (round r starts at the r-th
crate), so that a change of the machine's load falls on every crate alike. The medians of the
rebuilds are reported, and the ratios dsh / rmcp (targets: build <= 0.6, check <= 0.8), with the
load average before and after. Incremental compilation is off (`CARGO_INCREMENTAL=0`) unless
`--incremental` is given: touching a file changes nothing, so an incremental rebuild would reuse
every query and measure almost nothing of the macros' cost.

    python3 tests/benches/compile_time.py [--tools 50] [--runs 7] [--shape four|search]
        [--baseline DIR] [--unregistered] [--instructions] [--keep DIR]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RMCP_VERSION = "3.11"

# The targets of issue 35: dsh / rmcp.
BUILD_TARGET = 0.6
CHECK_TARGET = 0.8


# ---- the `four` shape: one 4-field argument struct per tool ----


def dsh_four(i: int) -> str:
    return f'''
#[derive(ToolArgs)]
pub struct ReadArgs{i} {{
    /// Absolute file path.
    pub path: String,
    /// First line to return.
    pub offset: Option<u64>,
    /// How many lines to return at most.
    #[arg(maximum = 10_000)]
    pub limit: u32,
    /// Whether to number the lines.
    pub numbered: bool,
}}

/// Read a file from disk.
#[tool(name = "read_file_{i}")]
pub async fn read_file_{i}(args: ReadArgs{i}) -> String {{
    args.path
}}
'''


def serde_four(i: int) -> str:
    return f'''
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs{i} {{
    /// Absolute file path.
    pub path: String,
    /// First line to return.
    pub offset: Option<u64>,
    /// How many lines to return at most.
    #[schemars(range(max = 10_000))]
    pub limit: u32,
    /// Whether to number the lines.
    pub numbered: bool,
}}
'''


def rmcp_four(i: int) -> str:
    return f'''
    /// Read a file from disk.
    #[tool(name = "read_file_{i}")]
    async fn read_file_{i}(&self, Parameters(args): Parameters<ReadArgs{i}>) -> String {{
        args.path
    }}
'''


# ---- the `search` shape: the `search_files` arguments with a nested struct and an enum ----


def dsh_search(i: int) -> str:
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


def serde_search(i: int) -> str:
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


def rmcp_search(i: int) -> str:
    return f'''
    /// Search files for a pattern.
    #[tool(name = "search_files_{i}")]
    async fn search_files_{i}(&self, Parameters(args): Parameters<SearchArgs{i}>) -> String {{
        args.path
    }}
'''


SHAPES = {
    # shape: (dsh tool, serde types, rmcp method, the tool struct `#[tool]` generates)
    "four": (dsh_four, serde_four, rmcp_four, "ReadFile{i}Tool"),
    "search": (dsh_search, serde_search, rmcp_search, "SearchFiles{i}Tool"),
}


def dsh_lib(tools: int, shape: str, register: bool) -> str:
    dsh_tool, _, _, tool_struct = SHAPES[shape]
    lib = "#![allow(dead_code)]\nuse dsh_tools::{ToolArgs, tool};\n" + "".join(
        dsh_tool(i) for i in range(tools)
    )
    if register:
        # As the README registers tools: one `register` per tool, its handle kept or dropped.
        lib += (
            "\n/// Every tool, registered.\n"
            "pub fn registry() -> Result<dsh_tools::ToolRegistry, dsh_tools::registry::RegistryError> {\n"
            "    let registry = dsh_tools::ToolRegistry::new();\n"
            + "".join(
                f"    let _ = registry.register({tool_struct.format(i=i)})?;\n"
                for i in range(tools)
            )
            + "    Ok(registry)\n}\n"
        )
    return lib


def crates(tools: int, shape: str, baseline, unregistered: bool) -> dict:
    _, serde_types, rmcp_method, _ = SHAPES[shape]
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
    out = {"dsh": (dsh_deps(REPO), dsh_lib(tools, shape, True))}
    if baseline:
        out["dsh-base"] = (dsh_deps(baseline), dsh_lib(tools, shape, True))
    if unregistered:
        out["dsh-noreg"] = (dsh_deps(REPO), dsh_lib(tools, shape, False))
    out["rmcp"] = (f'rmcp = "{RMCP_VERSION}"\n' + serde_deps, rmcp_lib)
    out["plain"] = (serde_deps, plain_lib)
    return out


def dsh_deps(repo: Path) -> str:
    return f'dsh-tools = {{ path = "{Path(repo).resolve() / "dsh-tools"}" }}\n'


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


def cargo(crate: Path, command: str, incremental: bool) -> float:
    start = time.perf_counter()
    subprocess.run(
        ["cargo", command, "--quiet"],
        cwd=crate,
        check=True,
        env={
            **os.environ,
            "CARGO_TARGET_DIR": str(crate / "target"),
            "CARGO_INCREMENTAL": "1" if incremental else "0",
        },
    )
    return time.perf_counter() - start


def rebuild(crate: Path, command: str, incremental: bool) -> float:
    (crate / "src" / "lib.rs").touch()
    return cargo(crate, command, incremental)


def rustc_line(crate: Path, command: str) -> str:
    """The shell line (environment and arguments) cargo runs to compile the crate itself."""
    (crate / "src" / "lib.rs").touch()
    done = subprocess.run(
        ["cargo", command, "-vv"],
        cwd=crate,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "CARGO_TARGET_DIR": str(crate / "target"), "CARGO_INCREMENTAL": "0"},
    )
    name = crate.name.replace("-", "_")
    for line in done.stderr.splitlines():
        line = line.strip()
        if line.startswith("Running `") and f"--crate-name bench_{name} " in line:
            return line[len("Running `") : -1]
    raise SystemExit(f"cargo {command} -vv of {crate} ran no rustc for the crate itself")


def instructions(crate: Path, command: str) -> int:
    """Instructions of the crate's own `rustc` invocation, counted by callgrind."""
    line = rustc_line(crate, command)
    rustc = re.search(r"(\S*rustc) --crate-name ", line)
    if rustc is None:
        raise SystemExit(f"no rustc in {line!r}")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        counted = line.replace(
            rustc.group(0),
            f"valgrind --tool=callgrind --callgrind-out-file={out} {rustc.group(0)}",
            1,
        )
        subprocess.run(["sh", "-c", counted], cwd=crate, check=True, capture_output=True)
        for text in out.read_text(errors="replace").splitlines():
            if text.startswith("totals:"):
                return int(text.split()[1])
    raise SystemExit(f"callgrind wrote no totals for {crate}")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--runs", type=int, default=7, help="rounds of rebuilds")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="four")
    parser.add_argument("--baseline", type=Path, help="also build the dsh crate against this checkout")
    parser.add_argument("--unregistered", action="store_true", help="also build the dsh crate without registry()")
    parser.add_argument("--keep", type=Path, help="generate into this directory and keep it")
    parser.add_argument("--incremental", action="store_true", help="keep incremental compilation on")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each crate's own rustc instructions under callgrind")
    args = parser.parse_args()

    root = args.keep or Path(tempfile.mkdtemp(prefix="dsh-compile-time-"))
    root.mkdir(parents=True, exist_ok=True)
    names = []
    paths = {}
    for name, (deps, lib) in crates(args.tools, args.shape, args.baseline, args.unregistered).items():
        paths[name] = write_crate(root, name, deps, lib)
        names.append(name)
    print(f"{args.tools} tools of the `{args.shape}` shape, {args.runs} rounds, crates in {root}")
    for name in names:  # dependencies, and a first build and check of each crate
        cargo(paths[name], "build", args.incremental)
        cargo(paths[name], "check", args.incremental)

    times = {(name, command): [] for name in names for command in ("build", "check")}
    load_before = load()
    for round_ in range(args.runs):
        first = round_ % len(names)
        for name in names[first:] + names[:first]:
            for command in ("build", "check"):
                times[(name, command)].append(rebuild(paths[name], command, args.incremental))
    load_after = load()

    medians = {key: statistics.median(values) for key, values in times.items()}
    print(f"load average (1, 5, 15 min) before: {load_before}; after: {load_after}")
    print(f"{'crate':>10}  {'build':>7}  {'check':>7}")
    for name in names:
        print(f"{name:>10}  {medians[(name, 'build')]:6.2f}s  {medians[(name, 'check')]:6.2f}s")
    for name in names:
        for command in ("build", "check"):
            runs = ", ".join(f"{t:.2f}" for t in times[(name, command)])
            print(f"  {name} {command} runs: {runs}")

    def ratio(a: str, b: str, command: str) -> float:
        return medians[(a, command)] / medians[(b, command)]

    print(f"ratio dsh / rmcp: build {ratio('dsh', 'rmcp', 'build'):.2f} (target <= {BUILD_TARGET}), "
          f"check {ratio('dsh', 'rmcp', 'check'):.2f} (target <= {CHECK_TARGET})")
    for other in ("dsh-base", "dsh-noreg"):
        if other in names:
            print(f"ratio {other} / rmcp: build {ratio(other, 'rmcp', 'build'):.2f}, "
                  f"check {ratio(other, 'rmcp', 'check'):.2f}; "
                  f"dsh / {other}: build {ratio('dsh', other, 'build'):.2f}, "
                  f"check {ratio('dsh', other, 'check'):.2f}")
    for command in ("build", "check"):
        print(f"{command}: macro cost over plain structs: "
              f"dsh {medians[('dsh', command)] - medians[('plain', command)]:+.2f} s, "
              f"rmcp {medians[('rmcp', command)] - medians[('plain', command)]:+.2f} s")
    if args.instructions:
        counts = {(name, command): instructions(paths[name], command)
                  for name in names for command in ("build", "check")}
        print("instructions of the crate's own rustc (callgrind, millions):")
        for name in names:
            print(f"{name:>10}  build {counts[(name, 'build')] / 1e6:9.1f}  "
                  f"check {counts[(name, 'check')] / 1e6:9.1f}")
        for other in ("rmcp", "dsh-base", "dsh-noreg", "plain"):
            if other in names:
                print(f"instructions dsh / {other}: "
                      f"build {counts[('dsh', 'build')] / counts[(other, 'build')]:.3f}, "
                      f"check {counts[('dsh', 'check')] / counts[(other, 'check')]:.3f}")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
