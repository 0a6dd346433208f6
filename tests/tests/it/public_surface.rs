//! The public surface of `dsh-tools` and `dsh-tools-schema`, counted from their sources, kept
//! small: at most [`MAX_PUBLIC_CONSTANTS`] public constants (a tuning default belongs in an
//! option type's `Default`, a closed set of names in an enum), and no more public items than
//! [`MAX_PUBLIC_ITEMS`], a ratchet lowered as the surface shrinks, so that it never grows
//! unnoticed: a change that adds items raises the figure here, in review.
//!
//! Plain text reading, as the architecture checks do (their `code_of` drops comments, strings
//! and tests). The workspace denies `unreachable_pub`, so an item written `pub` (not
//! `pub(crate)`) is reachable from outside: it is public API unless it is `#[doc(hidden)]` or
//! inside a `#[doc(hidden)]` module (`__private`, the schema's `derive`). Counted, each once
//! where it is declared: modules, structs, enums and their variants, traits and their items,
//! functions and methods, type aliases, statics and constants; not fields, re-exports or trait
//! implementations. An item a `macro_rules!` template declares counts once, however many times
//! the macro is used. A hidden module's item is public all the same when a counted file
//! re-exports it by name (a family's struct in the schema's `rules/`, re-exported at the
//! crate's root): it counts where it is declared, with the methods of its `impl` blocks there,
//! and so do the items of a hidden module's `macro_rules!` that a counted file expands (the
//! builders' methods written beside their keywords' rules).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::architecture::{code_of, rust_files, src_dir};

/// The most public constants the two crates may have.
const MAX_PUBLIC_CONSTANTS: usize = 30;

/// The most public items the two crates may have: the count today. Lower it when the surface
/// shrinks; raise it only for an item users need, saying so in the change. 834: the schema
/// model's layout (its kinds, rules and keyword families), the engine's fixed limits and the
/// partial reader's node view hidden, as not API; what the crate returns (provider results,
/// errors, streamed calls, records, trace contexts) read from its fields; option types and
/// settings as plain structs with documented defaults (`ToolOptions`, `ToolInfo`, `CallLimits`,
/// `CodeLimits`, `HttpOptions`, `ServerOptions`, `ImportOptions`, `ConnectOptions`,
/// `Telemetry`, the presentation settings); a tool's optional settings one value on every
/// definition (`ToolDefinition::options`, a `ToolOptions`, for the thirteen provided methods
/// it replaced); one generic schema builder; one spelling per operation; what only the crate
/// uses no longer public; an error's name given by its code (`ErrorCode::name`, no `ErrorName`
/// enum), what approvers, call observers and listeners are handed read from fields, and a
/// result taken apart and rebuilt, and its presenter's summary made, with `From`. 786: one
/// constructor per value (`From` for progress reports and agent ids, `Default` for the limits),
/// conversion errors and state types read from their fields, the raw arguments parser and the
/// fixed caps not API. 755: violations, import options, MCP handles and the journal policy
/// read from fields, one spelling of each provider dialect. 744: `Default` alone building
/// shared state, the in-memory store and the partial JSON reader, one detached run, cards made
/// by a layer or an observed call only, MCP pins read as one map, `Patch` matched on. 727:
/// cancellation read from the run's token, a result read with its getters and built with its
/// `with_*` methods, an error's code read from its info, one shared state lookup, variants
/// spelled as variants, and the conversion helpers only the macros use not API. 708: a
/// schema's bounds as Rust ranges, a batch's execution mode the runner's own, one constructor for
/// an owned or shared call store, a compiled schema and an icon, wire keys and two MCP handle
/// methods gone. 705: the approver removed by disposing its handle, as every registration is;
/// whether a format is checked read from its variant; an MCP client's state shown by its calls.
/// 695: values validated through a compiled schema only (the interpreter's entry points hidden),
/// a map built as an object with an additional schema, a schema document rendered by the caller,
/// a content block's text matched on, shared state read by tools only, a schema error made a
/// tool error by the registry alone, and `ToolArgs::OPTIONAL` hidden beside `absent`.
const MAX_PUBLIC_ITEMS: usize = 695;

/// The crates whose surface is counted.
const PACKAGES: &[&str] = &["dsh-tools", "dsh-tools-schema"];

/// The keywords that start an item counted under their own name (`const` and `union` are read
/// apart: `const fn` is a function, a union counts as a struct).
const ITEM_KINDS: &[&str] = &["fn", "struct", "enum", "trait", "type", "static", "mod"];

/// One public item: its kind (`const`, `fn`, `variant`, …) and where it is declared.
#[derive(Debug, PartialEq)]
struct Item {
    kind: &'static str,
    name: String,
}

/// The public items one file's code declares.
fn public_items(code: &str) -> Vec<Item> {
    let bytes = code.as_bytes();
    let mut items = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("pub") {
        let start = at + found;
        at = start + 3;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at).copied();
        if is_word(before) || !after.is_some_and(|b| b.is_ascii_whitespace()) {
            continue; // `pub(crate)`, `republish`, …
        }
        if hidden_before(code, start) {
            continue;
        }
        let mut words = Words::new(code, at);
        let mut kind = words.next_word();
        while matches!(kind, "async" | "unsafe" | "extern" | "default") {
            kind = words.next_word();
        }
        let (kind, name) = match kind {
            "const" => {
                let mut next = words.next_word();
                if matches!(next, "fn" | "async" | "unsafe") {
                    while next != "fn" && !next.is_empty() {
                        next = words.next_word();
                    }
                    ("fn", words.next_word())
                } else {
                    ("const", next)
                }
            }
            "union" => ("struct", words.next_word()),
            other => match ITEM_KINDS.iter().find(|known| **known == other) {
                Some(known) => (*known, words.next_word()),
                // A field, a re-export (`pub use`), a tuple field's type: not an item.
                None => continue,
            },
        };
        let name = name.to_owned();
        match kind {
            "enum" => {
                let body = body_after(code, words.at);
                let variants = members(body).len();
                items.push(Item {
                    kind: "enum",
                    name: name.clone(),
                });
                items.extend((0..variants).map(|_| Item {
                    kind: "variant",
                    name: name.clone(),
                }));
            }
            "trait" => {
                let body = body_after(code, words.at);
                items.push(Item {
                    kind: "trait",
                    name: name.clone(),
                });
                items.extend(trait_items(body).into_iter().map(|member| Item {
                    kind: "trait item",
                    name: format!("{name}::{member}"),
                }));
            }
            _ => items.push(Item { kind, name }),
        }
    }
    items
}

fn is_word(byte: Option<u8>) -> bool {
    byte.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether the attributes right before `at` (back to the previous item's end) hide the item.
fn hidden_before(code: &str, at: usize) -> bool {
    let head = &code[..at];
    let from = head.rfind([';', '{', '}']).map_or(0, |i| i + 1);
    head[from..].contains("doc(hidden)")
}

/// Reads the words of `code` from `at` on, skipping white space and generic punctuation.
struct Words<'c> {
    code: &'c str,
    at: usize,
}

impl<'c> Words<'c> {
    fn new(code: &'c str, at: usize) -> Self {
        Self { code, at }
    }

    fn next_word(&mut self) -> &'c str {
        let bytes = self.code.as_bytes();
        while self.at < bytes.len() && !is_word(Some(bytes[self.at])) {
            self.at += 1;
        }
        let start = self.at;
        while self.at < bytes.len() && is_word(Some(bytes[self.at])) {
            self.at += 1;
        }
        &self.code[start..self.at]
    }
}

/// The text between the braces of the block that opens at or after `at` (empty for an item
/// that ends with `;` first, as a unit struct or an out-of-line module).
fn body_after(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let Some(open) = rest.find(['{', ';']) else {
        return "";
    };
    if rest.as_bytes()[open] == b';' {
        return "";
    }
    let mut depth = 0usize;
    for (i, byte) in rest.bytes().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return &rest[open + 1..i];
                }
            }
            _ => {}
        }
    }
    ""
}

/// `body` without its attributes (`#[…]`), split at the commas outside any bracket: an enum's
/// variants, each kept unless it is hidden.
fn members(body: &str) -> Vec<&str> {
    let bytes = body.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .filter(|part| !part.contains("doc(hidden)"))
        .filter(|part| is_word(without_attributes(part).trim().bytes().next()))
        .collect()
}

/// `text` with its leading attributes removed.
fn without_attributes(text: &str) -> &str {
    let mut rest = text.trim_start();
    while let Some(attribute) = rest.strip_prefix("#[") {
        let mut depth = 1;
        let end = attribute
            .bytes()
            .position(|byte| {
                match byte {
                    b'[' => depth += 1,
                    b']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(attribute.len(), |i| i + 1);
        rest = attribute[end..].trim_start();
    }
    rest
}

/// The names of a trait's items (`fn`, `const`, `type`), hidden ones left out.
fn trait_items(body: &str) -> Vec<String> {
    let bytes = body.as_bytes();
    let mut names = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // The end of a declaration without a body, or of one with a default body.
            b';' | b'{' => {
                let declaration = &body[start..i];
                if !declaration.contains("doc(hidden)") {
                    let mut words = Words::new(declaration, 0);
                    loop {
                        let word = words.next_word();
                        if word.is_empty() {
                            break;
                        }
                        if matches!(word, "fn" | "const" | "type") {
                            let name = words.next_word();
                            // `const fn` is a function.
                            let name = if name == "fn" {
                                words.next_word()
                            } else {
                                name
                            };
                            names.push(name.to_owned());
                            break;
                        }
                    }
                }
                if bytes[i] == b'{' {
                    i += body_after(&body[i..], 0).len() + 2;
                } else {
                    i += 1;
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    names
}

/// The files and folders under `src/` of the modules `file` declares `#[doc(hidden)] pub mod
/// name;` (`name.rs` and `name/`, or what its `#[path]` names): none of their items is API.
fn hidden_modules(file: &str, source: &str) -> Vec<String> {
    let code = code_of(source);
    let dir = if file == "lib.rs" || file == "mod.rs" {
        String::new()
    } else if let Some(dir) = file.strip_suffix("/mod.rs") {
        format!("{dir}/")
    } else {
        format!("{}/", file.trim_end_matches(".rs"))
    };
    let mut hidden = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("pub mod ") {
        let start = at + found;
        at = start + 8;
        if !hidden_before(&code, start) {
            continue;
        }
        let name = Words::new(&code, at).next_word();
        match path_attribute(source, name) {
            Some(path) => hidden.push(format!("{dir}{path}")),
            None => hidden.extend([format!("{dir}{name}.rs"), format!("{dir}{name}/")]),
        }
    }
    hidden
}

/// The `#[path = "…"]` a file gives its module `name`: a file, or the folder of a `mod.rs`.
fn path_attribute(source: &str, name: &str) -> Option<String> {
    let declaration = source.find(&format!("pub mod {name};"))?;
    let head = &source[..declaration];
    let attributes = &head[head.rfind([';', '{', '}']).map_or(0, |i| i + 1)..];
    let path = &attributes[attributes.find("#[path = \"")? + 10..];
    let path = &path[..path.find('"')?];
    Some(path.strip_suffix("mod.rs").unwrap_or(path).to_owned())
}

/// Every public item of the counted crates, with the file that declares it.
fn surface() -> Vec<(String, Item)> {
    let mut all = Vec::new();
    for package in PACKAGES {
        let root = src_dir(package);
        let mut files = Vec::new();
        rust_files(&root, &root, &mut files);
        let sources: BTreeMap<&str, String> = files
            .iter()
            .map(|file| {
                let source = fs::read_to_string(root.join(file)).expect("a readable source");
                (file.as_str(), source)
            })
            .collect();
        let hidden: Vec<String> = sources
            .iter()
            .flat_map(|(file, source)| hidden_modules(file, source))
            .collect();
        let is_hidden = |file: &str| {
            hidden
                .iter()
                .any(|prefix| file.starts_with(prefix.as_str()))
        };
        let mut exported = BTreeSet::new();
        let mut expanded = BTreeSet::new();
        for (file, source) in &sources {
            if !is_hidden(file) {
                let code = code_of(source);
                exported.extend(reexported_names(&code));
                expanded.extend(expanded_macros(&code));
            }
        }
        for (file, source) in &sources {
            let place = Path::new(package).join("src").join(file);
            let code = code_of(source);
            let items = if is_hidden(file) {
                surfaced_items(&code, &exported, &expanded)
            } else {
                public_items(&code)
            };
            for item in items {
                all.push((place.display().to_string(), item));
            }
        }
    }
    all
}

/// The names a file's public re-exports (`pub use a::{B, C};`, not hidden) name.
fn reexported_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("pub use ") {
        let start = at + found;
        at = start + 8;
        let before = start.checked_sub(1).map(|i| code.as_bytes()[i]);
        if is_word(before) || hidden_before(code, start) {
            continue;
        }
        let end = code[at..].find(';').map_or(code.len(), |i| at + i);
        let mut words = Words::new(&code[..end], at);
        loop {
            let word = words.next_word();
            if word.is_empty() {
                break;
            }
            names.push(word.to_owned());
        }
        at = end;
    }
    names
}

/// The macros a file expands (`name!(…)`, `name! {…}`).
fn expanded_macros(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut names = Vec::new();
    for (bang, _) in code.match_indices('!') {
        let mut start = bang;
        while start > 0 && is_word(Some(bytes[start - 1])) {
            start -= 1;
        }
        let opens = code[bang + 1..].trim_start().starts_with(['(', '{', '[']);
        if start < bang && opens {
            names.push(code[start..bang].to_owned());
        }
    }
    names
}

/// The public items of a hidden module's file that are public all the same: the structs and
/// enums a counted file re-exports (`exported`), the methods of their `impl` blocks, and the
/// items of the `macro_rules!` a counted file expands (`expanded`).
fn surfaced_items(
    code: &str,
    exported: &BTreeSet<String>,
    expanded: &BTreeSet<String>,
) -> Vec<Item> {
    let bytes = code.as_bytes();
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let starts_word =
            depth == 0 && is_word(Some(bytes[i])) && !is_word(i.checked_sub(1).map(|j| bytes[j]));
        if !starts_word {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
            continue;
        }
        let mut words = Words::new(code, i);
        let keyword = words.next_word();
        let surfaced = match keyword {
            "struct" | "enum" => exported.contains(words.next_word()),
            "impl" => {
                let first = words.next_word();
                let after = words.next_word();
                // `impl Trait for Type` declares no public item of its own.
                after != "for" && exported.contains(first)
            }
            "macro_rules" => expanded.contains(words.next_word()),
            _ => false,
        };
        if !surfaced {
            // Past this word only: the words read after it may lie inside a block.
            i += keyword.len().max(1);
            continue;
        }
        // From the end of the item before (its attributes and `pub` included) to the end of
        // this one's block.
        let head = &code[..i];
        let start = head.rfind([';', '{', '}']).map_or(0, |j| j + 1);
        let rest = &code[i..];
        let end = match rest.find(['{', ';']) {
            Some(j) if rest.as_bytes()[j] == b'{' => i + j + body_after(rest, 0).len() + 2,
            Some(j) => i + j + 1,
            None => code.len(),
        };
        let end = end.min(code.len());
        items.extend(public_items(&code[start..end]));
        i = end;
    }
    items
}

fn by_kind(items: &[(String, Item)]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for (_, item) in items {
        *counts.entry(item.kind).or_default() += 1;
    }
    counts
}

/// A tuning default is an option type's `Default`, a closed set of names an enum: a public
/// constant is a promise users build on, so there are few.
#[test]
fn public_constants_stay_few() {
    let items = surface();
    let constants: Vec<String> = items
        .iter()
        .filter(|(_, item)| item.kind == "const")
        .map(|(file, item)| format!("{file}: {}", item.name))
        .collect();
    assert!(
        constants.len() <= MAX_PUBLIC_CONSTANTS,
        "{} public constants, more than {MAX_PUBLIC_CONSTANTS}: fold a tuning default into its \
         option type's `Default`, make a closed set an enum, or keep it `pub(crate)`:\n{}",
        constants.len(),
        constants.join("\n")
    );
}

/// The surface only shrinks: a new public item raises [`MAX_PUBLIC_ITEMS`] in the same change.
#[test]
fn the_public_surface_does_not_grow() {
    let items = surface();
    assert!(
        items.len() <= MAX_PUBLIC_ITEMS,
        "{} public items, more than the {MAX_PUBLIC_ITEMS} allowed ({:?}): make the new ones \
         `pub(crate)`, or raise MAX_PUBLIC_ITEMS in tests/tests/it/public_surface.rs saying why \
         users need them",
        items.len(),
        by_kind(&items)
    );
}

/// The reader itself: it counts what is public, and nothing else.
#[test]
fn the_count_sees_what_it_counts() {
    let code = code_of(
        "pub struct A { pub field: u8 }\n\
         pub(crate) struct Hidden;\n\
         pub use crate::x::Y;\n\
         /// docs with pub const IN_DOCS: u8 = 1;\n\
         pub const LIMIT: usize = 3;\n\
         #[doc(hidden)]\n\
         pub const HIDDEN: usize = 4;\n\
         impl A { pub const fn new() -> Self { Self { field: 0 } } pub fn get(&self) {} fn own() {} }\n\
         #[non_exhaustive]\n\
         pub enum E { #[default] One, Two(Vec<(u8, u8)>), Three { a: u8, b: u8 }, #[doc(hidden)] Four, }\n\
         pub trait T { const C: u8; type Out; fn f(&self) -> u8 { 1 } fn g(&self); #[doc(hidden)] fn h(); }\n\
         pub type Alias = u8;\n\
         pub mod m;\n\
         fn private() { let s = \"pub fn in_a_string()\"; }\n\
         pub(super) fn near() {}\n",
    );
    let found: Vec<String> = public_items(&code)
        .iter()
        .map(|item| format!("{} {}", item.kind, item.name))
        .collect();
    assert_eq!(
        found,
        [
            "struct A",
            "const LIMIT",
            "fn new",
            "fn get",
            "enum E",
            "variant E",
            "variant E",
            "variant E",
            "trait T",
            "trait item T::C",
            "trait item T::Out",
            "trait item T::f",
            "trait item T::g",
            "type Alias",
            "mod m",
        ]
    );
    assert_eq!(
        hidden_modules("lib.rs", "#[doc(hidden)]\npub mod derive;\npub mod open;\n"),
        ["derive.rs", "derive/"]
    );
    assert_eq!(
        hidden_modules(
            "lib.rs",
            "#[doc(hidden)]\n#[path = \"macro_support/mod.rs\"]\npub mod __private;\n"
        ),
        ["macro_support/"]
    );
    assert_eq!(
        hidden_modules("call/mod.rs", "#[doc(hidden)] pub mod inner;"),
        ["call/inner.rs", "call/inner/"]
    );
}

/// The reader of hidden modules: what a counted file re-exports or expands counts, nothing else.
#[test]
fn the_count_sees_what_hidden_modules_surface() {
    let hidden = code_of(
        "pub struct Shown { pub a: u8 }\n\
         pub struct Kept;\n\
         impl Shown { pub fn get(&self) {} pub(crate) fn own(&self) {} }\n\
         impl Clone for Shown { fn clone(&self) -> Self { Self { a: 0 } } }\n\
         impl Kept { pub fn unseen() {} }\n\
         macro_rules! methods { () => { pub fn expanded(&self) {} }; }\n\
         macro_rules! other { () => { pub fn not_expanded() {} }; }\n\
         pub fn helper() {}\n",
    );
    let exported: BTreeSet<String> = reexported_names(&code_of(
        "pub use hidden::{Shown, Other};\n#[doc(hidden)]\npub use hidden::Kept;\n",
    ))
    .into_iter()
    .collect();
    let expanded: BTreeSet<String> =
        expanded_macros(&code_of("impl Shown { hidden::methods!(); }"))
            .into_iter()
            .collect();
    let found: Vec<String> = surfaced_items(&hidden, &exported, &expanded)
        .iter()
        .map(|item| format!("{} {}", item.kind, item.name))
        .collect();
    assert_eq!(found, ["struct Shown", "fn get", "fn expanded"]);
}
