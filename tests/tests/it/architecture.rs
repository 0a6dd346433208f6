//! The workspace's structure, checked (see `ARCHITECTURE.md`): every `crate::`, `super::` and
//! `self::` path in `dsh-tools/src` points at a file of its own layer or a lower one, MCP's two
//! sides never name each other, in each crate (`dsh-tools`, `dsh-tools-schema`,
//! `dsh-tools-macros`, `dsh-tools-pattern`) no files import each other in a circle, and every
//! module's table of its files names exactly the files it has. A failure names the file and the
//! edge.
//!
//! Plain text reading, no parser: comments, string literals and everything from a file's first
//! `#[cfg(test)]` (or `#[cfg(all(test, …))]`) on are left out (tests may reach anywhere), and a
//! path counts as an edge to the longest module prefix it names. In the crates that hold to it, a
//! bare path into a file's own child module (`use evaluate::Report;` in `keywords/mod.rs`) is an
//! edge too, so a child naming an item through its parent's re-export is a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom first.
const LAYERS: &[&str] = &[
    "data", "durable", "call", "hooks", "store", "pipeline", "facade",
];

/// Which layer each file belongs to: the longest matching prefix of its path under `src/` wins.
/// A file no entry matches fails the test, so a new top-level module must be placed here (and
/// in `ARCHITECTURE.md`).
const PLACES: &[(&str, &str)] = &[
    ("args/", "data"),
    ("arguments.rs", "data"),
    ("callers.rs", "data"),
    ("canonical.rs", "data"),
    ("code_mode/", "data"),
    ("content.rs", "data"),
    ("decimal.rs", "data"),
    ("errors/", "data"),
    ("fields.rs", "data"),
    ("future.rs", "data"),
    ("idempotency.rs", "data"),
    ("ids.rs", "data"),
    ("limits.rs", "data"),
    ("lossless.rs", "data"),
    ("name_hash.rs", "data"),
    ("present.rs", "data"),
    ("present/", "data"),
    ("progress.rs", "data"),
    ("result.rs", "data"),
    ("search/", "data"),
    ("state.rs", "data"),
    ("telemetry.rs", "data"),
    ("telemetry/", "data"),
    ("text_bounds.rs", "data"),
    ("unique_keys.rs", "data"),
    // What the macros' expansions reach: checks and schema steps are data, the typed return
    // shims run a call, and the module root gathers everything for the macros.
    ("macro_support/", "data"),
    ("macro_support/returns.rs", "call"),
    ("macro_support/mod.rs", "facade"),
    ("durable/", "durable"),
    ("call/", "call"),
    ("hooks/", "hooks"),
    ("store/", "store"),
    ("pipeline/", "pipeline"),
    ("policy/", "pipeline"),
    ("registry/", "facade"),
    ("providers/", "facade"),
    ("mcp/", "facade"),
    ("acp/", "facade"),
    ("lib.rs", "facade"),
];

/// A crate whose files are checked for circles.
struct Crate {
    /// The package's folder, beside this one.
    package: &'static str,
    /// Whether bare paths into a file's own child modules count as edges. The runtime does not
    /// hold to it yet: `registry/` and `providers/` name items their `mod.rs` defines or
    /// re-exports from the files it declares.
    child_paths: bool,
}

/// The runtime first: its graph is the one the layer checks read.
const CRATES: &[Crate] = &[
    Crate {
        package: "dsh-tools",
        child_paths: false,
    },
    Crate {
        package: "dsh-tools-schema",
        child_paths: true,
    },
    Crate {
        package: "dsh-tools-macros",
        child_paths: true,
    },
    Crate {
        package: "dsh-tools-pattern",
        child_paths: true,
    },
];

pub(crate) fn src_dir(package: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(package)
        .join("src")
}

pub(crate) fn rust_files(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("the sources are readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(root).expect("under src/");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path a file defines (`lib.rs` is the root; `macro_support/` is `__private`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    if parts.first().map(String::as_str) == Some("macro_support") {
        parts[0] = "__private".to_owned();
    }
    parts
}

fn layer_of(file: &str) -> Option<&'static str> {
    PLACES
        .iter()
        .filter(|(prefix, _)| {
            file == *prefix || (prefix.ends_with('/') && file.starts_with(prefix))
        })
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, layer)| *layer)
}

fn rank(layer: &str) -> usize {
    LAYERS
        .iter()
        .position(|known| *known == layer)
        .expect("a known layer")
}

/// The code of a file without comments, string and char literals, and tests.
pub(crate) fn code_of(source: &str) -> String {
    let tests = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|marker| source.find(marker))
        .min();
    let source = match tests {
        Some(at) => &source[..at],
        None => source,
    };
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = source[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 2);
                i = end;
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'#' | b'"'))
                && !is_ident(bytes.get(i.wrapping_sub(1)).copied()) =>
            {
                let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
                if bytes.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let closing = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                i = source[start..]
                    .find(&closing)
                    .map_or(bytes.len(), |at| start + at + closing.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') || bytes.get(i + 1) == Some(&b'\\') => {
                // A char literal ('a', '\n', '\''); lifetimes have no closing quote.
                let close = source[i + 2..]
                    .find('\'')
                    .map_or(bytes.len(), |at| i + 2 + at + 1);
                i = close;
                out.push_str("' '");
            }
            byte => {
                out.push(byte as char);
                i += 1;
            }
        }
    }
    out
}

fn is_ident(byte: Option<u8>) -> bool {
    byte.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Every path a use tree starting at `text[at..]` names, as segments (groups expanded).
fn paths_at(text: &str, at: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    tree(text.as_bytes(), &mut { at }, Vec::new(), &mut out);
    out
}

fn tree(bytes: &[u8], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        skip_space(bytes, at);
        if bytes.get(*at) == Some(&b'{') {
            *at += 1;
            loop {
                skip_space(bytes, at);
                match bytes.get(*at) {
                    Some(b'}') => {
                        *at += 1;
                        return;
                    }
                    Some(b',') => *at += 1,
                    None => return,
                    _ => tree(bytes, at, path.clone(), out),
                }
            }
        }
        let start = *at;
        while is_ident(bytes.get(*at).copied()) {
            *at += 1;
        }
        if start == *at {
            out.push(path);
            return;
        }
        path.push(String::from_utf8_lossy(&bytes[start..*at]).into_owned());
        skip_space(bytes, at);
        if bytes[*at..].starts_with(b"::") {
            *at += 2;
        } else {
            out.push(path);
            return;
        }
    }
}

fn skip_space(bytes: &[u8], at: &mut usize) {
    while bytes.get(*at).is_some_and(u8::is_ascii_whitespace) {
        *at += 1;
    }
}

/// The module paths a file's code names through `crate::`, `super::` and `self::`.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for keyword in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(keyword) {
            let at = from + found;
            from = at + keyword.len();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            // `$crate::` inside a macro of the crate names the crate too.
            if is_ident(before) || before == Some(b':') {
                continue;
            }
            let mut base: Vec<String> = match keyword {
                "crate::" => Vec::new(),
                _ => module.to_vec(),
            };
            let mut rest = at + keyword.len();
            if keyword == "super::" {
                base.pop();
                while code[rest..].starts_with("super::") {
                    base.pop();
                    rest += "super::".len();
                }
            }
            for path in paths_at(code, rest) {
                let mut full = base.clone();
                full.extend(path);
                out.push(full);
            }
        }
    }
    out
}

/// The module paths a file's code names by a bare path into one of its own child modules
/// (`use evaluate::Report;`, `compile::Compiler::new(..)` in `keywords/mod.rs`).
fn child_paths(code: &str, module: &[String], children: &[&str]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for child in children {
        let needle = format!("{child}::");
        let mut from = 0;
        while let Some(found) = code[from..].find(&needle) {
            let at = from + found;
            from = at + needle.len();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if is_ident(before) || before == Some(b':') || before == Some(b'$') {
                continue;
            }
            for path in paths_at(code, at) {
                let mut full = module.to_vec();
                full.extend(path);
                out.push(full);
            }
        }
    }
    out
}

struct Graph {
    files: Vec<String>,
    edges: BTreeMap<String, BTreeSet<String>>,
}

fn graph(krate: &Crate) -> Graph {
    let root = src_dir(krate.package);
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|file| (module_of(file), file.clone()))
        .collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let source = fs::read_to_string(root.join(file)).expect("a readable source file");
        let module = module_of(file);
        let code = code_of(&source);
        let mut paths = named_paths(&code, &module);
        if krate.child_paths {
            let children: Vec<&str> = modules
                .keys()
                .filter(|other| other.len() == module.len() + 1 && other.starts_with(&module))
                .map(|other| other[module.len()].as_str())
                .collect();
            paths.extend(child_paths(&code, &module, &children));
        }
        let mut targets = BTreeSet::new();
        for path in paths {
            let target = (1..=path.len())
                .rev()
                .find_map(|len| modules.get(&path[..len]))
                .or_else(|| modules.get(&Vec::new()));
            if let Some(target) = target
                && target != file
            {
                targets.insert(target.clone());
            }
        }
        edges.insert(file.clone(), targets);
    }
    Graph { files, edges }
}

/// The runtime's graph, which the layer checks read.
fn runtime() -> Graph {
    graph(&CRATES[0])
}

#[test]
fn every_file_has_a_layer() {
    let unplaced: Vec<_> = runtime()
        .files
        .into_iter()
        .filter(|file| layer_of(file).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "files of dsh-tools/src with no layer (add them to PLACES here and to ARCHITECTURE.md): {unplaced:?}"
    );
}

/// A place no file matches is a file that moved or went: the table and `ARCHITECTURE.md` say
/// where things are, so they must not name what is gone.
#[test]
fn every_place_names_a_file() {
    let files = runtime().files;
    let stale: Vec<_> = PLACES
        .iter()
        .map(|(prefix, _)| *prefix)
        .filter(|prefix| {
            !files
                .iter()
                .any(|file| file == prefix || (prefix.ends_with('/') && file.starts_with(prefix)))
        })
        .collect();
    assert!(
        stale.is_empty(),
        "PLACES names files dsh-tools/src no longer has (remove them here and from ARCHITECTURE.md): {stale:?}"
    );
}

#[test]
fn no_import_points_up_a_layer() {
    let graph = runtime();
    let mut upward = Vec::new();
    for (file, targets) in &graph.edges {
        let Some(layer) = layer_of(file) else {
            continue;
        };
        for target in targets {
            let Some(target_layer) = layer_of(target) else {
                continue;
            };
            if rank(target_layer) > rank(layer) {
                upward.push(format!(
                    "{file} ({layer}) imports {target} ({target_layer}), a layer above it"
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports pointing up a layer:\n{}",
        upward.join("\n")
    );
}

/// MCP's serving and importing sides share only the vocabulary above them (`mcp/convert.rs`,
/// `mcp/error.rs`, `mcp/task_support.rs`): a server that reached into the client's files, or the
/// reverse, would tie two things users deploy apart.
#[test]
fn the_mcp_sides_do_not_name_each_other() {
    let graph = runtime();
    let sides = ["mcp/serving/", "mcp/importing/"];
    let mut crossings = Vec::new();
    for (file, targets) in &graph.edges {
        let Some(side) = sides.iter().find(|side| file.starts_with(*side)) else {
            continue;
        };
        for target in targets {
            if sides
                .iter()
                .any(|other| other != side && target.starts_with(other))
            {
                crossings.push(format!("{file} imports {target}"));
            }
        }
    }
    assert!(
        sides
            .iter()
            .all(|side| graph.files.iter().any(|file| file.starts_with(side))),
        "the MCP sides moved: update this check and ARCHITECTURE.md"
    );
    assert!(
        crossings.is_empty(),
        "MCP's serving and importing sides name each other:\n{}",
        crossings.join("\n")
    );
}

/// Every circle of `edges`, each as the edges between its files (`a.rs → b.rs`).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    strongly_connected(edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let inside: Vec<String> = component
                .iter()
                .flat_map(|file| {
                    edges[file]
                        .iter()
                        .filter(|target| component.contains(target))
                        .map(move |target| format!("  {file} → {target}"))
                })
                .collect();
            format!("{}:\n{}", component.join(", "), inside.join("\n"))
        })
        .collect()
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let mut found = Vec::new();
    for krate in CRATES {
        for circle in circles(&graph(krate).edges) {
            found.push(format!("{}/src: {circle}", krate.package));
        }
    }
    assert!(
        found.is_empty(),
        "files that import each other, directly or through others:\n{}",
        found.join("\n")
    );
}

/// The checker itself: a cycle and an upward edge are found where they exist.
#[test]
fn the_checks_see_what_they_check() {
    let code = code_of(
        "use crate::a::{b::C, d};\n// use crate::commented::Out;\nlet s = \"crate::in_string\";\nuse super::{e, f::G};\n",
    );
    let paths = named_paths(&code, &["x".to_owned(), "y".to_owned()]);
    let as_text: Vec<String> = paths.iter().map(|path| path.join("::")).collect();
    assert_eq!(as_text, ["a::b::C", "a::d", "x::e", "x::f::G"]);

    let code = code_of("mod walk;\nuse walk::{Walk, deep::Step};\nlet n = std::walk::x;\n");
    let paths = child_paths(&code, &["keywords".to_owned()], &["walk"]);
    let as_text: Vec<String> = paths.iter().map(|path| path.join("::")).collect();
    assert_eq!(
        as_text,
        ["keywords::walk::Walk", "keywords::walk::deep::Step"]
    );

    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a.rs", vec!["b.rs"]),
        ("b.rs", vec!["c.rs"]),
        ("c.rs", vec!["a.rs"]),
        ("d.rs", vec!["a.rs"]),
    ]
    .into_iter()
    .map(|(file, to)| (file.to_owned(), to.into_iter().map(String::from).collect()))
    .collect();
    let cycles: Vec<_> = strongly_connected(&edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .collect();
    assert_eq!(cycles, [vec!["a.rs", "b.rs", "c.rs"]]);
    assert_eq!(
        circles(&edges),
        ["a.rs, b.rs, c.rs:\n  a.rs → b.rs\n  b.rs → c.rs\n  c.rs → a.rs"]
    );

    assert_eq!(layer_of("call/run.rs"), Some("call"));
    assert_eq!(layer_of("macro_support/returns.rs"), Some("call"));
    assert_eq!(layer_of("macro_support/documented.rs"), Some("data"));
    assert_eq!(layer_of("newfile.rs"), None);
}

/// Tarjan's strongly connected components, each sorted, in a stable order.
fn strongly_connected(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        edges: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        components: Vec<Vec<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g str) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        let edges = state.edges;
        for target in edges.get(node).into_iter().flatten() {
            let target = target.as_str();
            if !state.index.contains_key(target) {
                visit(state, target);
                let low = state.low[node].min(state.low[target]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(target) {
                let low = state.low[node].min(state.index[target]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.push(member.to_owned());
                if member == node {
                    break;
                }
            }
            component.sort();
            state.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in edges.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.components.sort();
    state.components
}

/// The names a module's file table gives in its first column (`` | `listing.rs` | … | ``), or
/// none when its docs have no table.
fn table_names(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in source.lines() {
        let Some(row) = line.strip_prefix("//! |") else {
            continue;
        };
        let first = row.split('|').next().unwrap_or_default();
        names.extend(
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|name| name.ends_with(".rs") || name.ends_with('/'))
                .map(String::from),
        );
    }
    names
}

/// A module file's table of the files it declares says what each owns, so it must name every
/// file and folder beside it and nothing that is gone. A folder may stand for its module file
/// (`stream/` or `stream.rs`). Modules without a table are not checked.
#[test]
fn every_file_table_names_the_files_it_has() {
    let mut drifted = Vec::new();
    let mut tables = 0;
    for krate in CRATES {
        let root = src_dir(krate.package);
        let mut files = Vec::new();
        rust_files(&root, &root, &mut files);
        for file in &files {
            let path = root.join(file);
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            let folder = if name == "mod.rs" || name == "lib.rs" {
                path.parent().map(Path::to_path_buf)
            } else {
                Some(path.with_extension("")).filter(|folder| folder.is_dir())
            };
            let Some(folder) = folder else {
                continue;
            };
            let named = table_names(&fs::read_to_string(&path).expect("a readable source file"));
            if named.is_empty() {
                continue;
            }
            tables += 1;
            let mut present = BTreeSet::new();
            for entry in fs::read_dir(&folder).expect("a readable folder") {
                let entry = entry.expect("a directory entry").path();
                let entry_name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if entry.is_dir() {
                    present.insert(format!("{entry_name}/"));
                } else if entry_name.ends_with(".rs")
                    && entry_name != "mod.rs"
                    && entry_name != "lib.rs"
                {
                    present.insert(entry_name.to_owned());
                }
            }
            let twin = |name: &str| match name.strip_suffix('/') {
                Some(stem) => format!("{stem}.rs"),
                None => format!("{}/", name.trim_end_matches(".rs")),
            };
            let listed = |name: &str| named.iter().any(|n| n == name || *n == twin(name));
            for entry in &present {
                if !listed(entry) {
                    drifted.push(format!(
                        "{}/src/{file}: its table does not name {entry}",
                        krate.package
                    ));
                }
            }
            for name in &named {
                if !present.contains(name) && !present.contains(&twin(name)) {
                    drifted.push(format!(
                        "{}/src/{file}: its table names {name}, which is gone",
                        krate.package
                    ));
                }
            }
        }
    }
    assert!(
        tables >= 5,
        "the file tables were not found ({tables}): is the row syntax still `//! | `name` | … |`?"
    );
    assert!(
        drifted.is_empty(),
        "module file tables out of step with their folders:\n{}",
        drifted.join("\n")
    );
}

/// The files outside Code Mode's own folders (`code_mode/`, the call layer's `run_code`) that
/// may name the feature, each for what it does with it. Everything else reaches Code Mode
/// through a seam whose items have the same shape in every build: the store's
/// `store/code_mode/kept.rs` and `decide.rs`, the call layer's `CallHost::programs` (a
/// `ProgramHost`, `call/run_code/host.rs`), the providers' `programmatic.rs`.
const CODE_MODE_SITES: &[(&str, &str)] = &[
    ("lib.rs", "declares `code_mode`"),
    ("call/mod.rs", "declares `run_code`"),
    (
        "registry/mod.rs",
        "declares the scope's Code Mode settings and re-exports `RUN_CODE`",
    ),
    (
        "durable/mod.rs",
        "declares the journal's rules for runs (with `durable`)",
    ),
    (
        "call/execution.rs",
        "`CallHost::programs`, and keying a run's nested calls",
    ),
    ("pipeline/host.rs", "the registry's `CallHost::programs`"),
    (
        "content.rs",
        "the fenced blocks ACP and Code Mode both write",
    ),
    (
        "errors/tool_error.rs",
        "Code Mode's errors, beside every other error text",
    ),
    (
        "providers/mod.rs",
        "`ProviderTools::programmatic`, the setter, and its flag",
    ),
    (
        "providers/programmatic.rs",
        "the providers' seam: `list`, `finish_request`",
    ),
    (
        "store/state.rs",
        "fields kept for Code Mode, unread without it",
    ),
    (
        "store/core.rs",
        "a field kept for Code Mode, unread without it",
    ),
    (
        "callers.rs",
        "whether the model may call a tool, which only Code Mode asks",
    ),
];

/// How many times those files name the feature at most: a new site is a seam widening, which
/// this makes a decision rather than a drift.
const MAX_CODE_MODE_SITES: usize = 25;

#[test]
fn code_mode_is_reached_through_its_seams() {
    let root = src_dir("dsh-tools");
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
    let mut unlisted = Vec::new();
    let mut sites = 0;
    for file in &files {
        let own =
            file.split('/').any(|part| part == "code_mode") || file.starts_with("call/run_code");
        if own {
            continue;
        }
        let source = fs::read_to_string(root.join(file)).expect("a readable source file");
        let count = source.matches("feature = \"code-mode\"").count();
        if count == 0 {
            continue;
        }
        sites += count;
        if !CODE_MODE_SITES.iter().any(|(listed, _)| listed == file) {
            unlisted.push(format!("{file} ({count})"));
        }
    }
    assert!(
        unlisted.is_empty(),
        "files outside Code Mode's folders that name the feature: reach it through a seam, or \
         list the file in CODE_MODE_SITES with why: {unlisted:?}"
    );
    assert!(
        sites <= MAX_CODE_MODE_SITES,
        "{sites} sites name the feature `code-mode` outside its folders, more than \
         {MAX_CODE_MODE_SITES}: reach it through a seam"
    );
    assert!(sites > 0, "the count reads the sources it names");
}
