//! The TypeScript declaration of the tools a program can call: `declare const tools: { … }` with
//! one interface per argument and output type, deterministic for an unchanged tool set.
//!
//! The named declarations come first: per tool in name order its `Args`, its `Output`, then the
//! `$defs` of its argument schema and of its output schema (key order), each a PascalCase name
//! made unique by a number. A `$ref` to a definition is its name, which is how recursive types
//! refer to themselves. Then `tools`, one documented member per tool.
//!
//! A property's doc comment carries, after its description, the rules a TypeScript type cannot
//! say, as the JSON views show them: `@minimum 1`, `@maxLength 80`, `@pattern ^[a-z]+$`,
//! `@format date-time`, `@default 200`, `@deprecated` (see `types.rs`).

mod types;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use types::{Refs, doc_comment, is_interface, key, members, render};

/// One tool as a program sees it.
///
/// Not API: the tests read the declarations through it; users see them in `run_code`'s
/// description.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DeclaredTool<'a> {
    /// The tool's name (`tools.<name>` or `tools["odd-name"]`).
    pub name: &'a str,
    /// What the tool does; its doc comment.
    pub description: &'a str,
    /// The JSON Schema of the arguments, as the model sees it.
    pub parameters: &'a Value,
    /// The JSON Schema of the value the call resolves to, when the tool declares one.
    pub output: Option<&'a Value>,
}

/// Names a declaration may not take: the globals the declaration itself uses or a program
/// is likely to.
const RESERVED: &[&str] = &[
    "Array", "Boolean", "Date", "Error", "Function", "JSON", "Map", "Math", "Number", "Object",
    "Partial", "Promise", "Record", "RegExp", "Set", "String", "Symbol",
];

/// The TypeScript declaration of `tools`, in name order whatever order they come in.
///
/// Not API, as [`DeclaredTool`].
#[doc(hidden)]
pub fn typescript_declarations(tools: &[DeclaredTool<'_>]) -> String {
    let mut tools: Vec<&DeclaredTool<'_>> = tools.iter().collect();
    tools.sort_by(|a, b| a.name.cmp(b.name));
    let mut names = Names::default();
    let roots: Vec<(String, Option<String>)> = tools
        .iter()
        .map(|tool| {
            let base = names.base(tool.name, &["Args", "Output"]);
            (
                names.take(&format!("{base}Args")),
                tool.output.map(|_| names.take(&format!("{base}Output"))),
            )
        })
        .collect();
    let mut out = String::new();
    let mut defs_out = String::new();
    let mut members_out = String::new();
    for (tool, (args, output)) in tools.iter().zip(&roots) {
        defs_out.clear();
        declare_document(&mut names, args, tool.parameters, &mut out, &mut defs_out);
        let returns = match (output, tool.output) {
            (Some(name), Some(schema)) => {
                declare_document(&mut names, name, schema, &mut out, &mut defs_out);
                name.as_str()
            }
            _ => "unknown",
        };
        out.push_str(&defs_out);
        members_out.push_str(&doc_comment(tool.description, 1));
        members_out.push_str(&format!(
            "  {}(args: {args}): Promise<{returns}>;\n",
            key(tool.name)
        ));
    }
    if members_out.is_empty() {
        out.push_str("declare const tools: {};\n");
    } else {
        out.push_str(&format!("declare const tools: {{\n{members_out}}};\n"));
    }
    out
}

/// Declares the document `schema` as `name` into `out` and its definitions into `defs_out`.
fn declare_document(
    names: &mut Names,
    name: &str,
    schema: &Value,
    out: &mut String,
    defs_out: &mut String,
) {
    let mut defs: BTreeMap<String, String> = BTreeMap::new();
    let mut bodies: Vec<(String, &Value)> = Vec::new();
    for keyword in ["$defs", "definitions"] {
        let Some(found) = schema.get(keyword).and_then(Value::as_object) else {
            continue;
        };
        let mut keys: Vec<&String> = found.keys().collect();
        keys.sort();
        for def_key in keys {
            if defs.contains_key(def_key) {
                continue;
            }
            let def_name = names.take(&names.base(def_key, &[""]));
            defs.insert(def_key.clone(), def_name.clone());
            bodies.push((def_name, &found[def_key]));
        }
    }
    let refs = Refs {
        root: name,
        defs: &defs,
    };
    out.push_str(&declaration(name, schema, &refs));
    for (def_name, body) in bodies {
        defs_out.push_str(&declaration(&def_name, body, &refs));
    }
}

/// `interface Name { … }` for an object with properties, `type Name = …;` otherwise.
fn declaration(name: &str, schema: &Value, refs: &Refs<'_>) -> String {
    let mut out = schema
        .get("description")
        .and_then(Value::as_str)
        .map(|description| doc_comment(description, 0))
        .unwrap_or_default();
    match schema.as_object() {
        Some(object) if is_interface(schema) => {
            out.push_str(&format!(
                "interface {name} {{\n{}}}\n",
                members(object, refs, 0, 1)
            ));
        }
        _ => out.push_str(&format!(
            "type {name} = {};\n",
            render(schema, refs, 0, 0).text
        )),
    }
    out
}

/// The names taken so far.
#[derive(Default)]
struct Names {
    taken: BTreeSet<String>,
}

impl Names {
    /// The PascalCase of `raw`, numbered until no name with any of `suffixes` is taken.
    fn base(&self, raw: &str, suffixes: &[&str]) -> String {
        let pascal = pascal_case(raw);
        let free = |base: &str| {
            suffixes.iter().all(|suffix| {
                let name = format!("{base}{suffix}");
                !self.taken.contains(&name) && !RESERVED.contains(&name.as_str())
            })
        };
        if free(&pascal) {
            return pascal;
        }
        (2..)
            .map(|n| format!("{pascal}{n}"))
            .find(|candidate| free(candidate))
            .unwrap_or(pascal)
    }

    /// Takes `name` (free by [`Names::base`]) and returns it.
    fn take(&mut self, name: &str) -> String {
        self.taken.insert(name.to_owned());
        name.to_owned()
    }
}

/// `read_file` → `ReadFile`, `my-tool` → `MyTool`, `2fast` → `T2fast`: the words between
/// characters other than ASCII letters and digits, each with its first letter capitalized.
fn pascal_case(raw: &str) -> String {
    let mut out = String::new();
    for word in raw.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() {
        out.push_str("Tool");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn declare(name: &str, description: &str, parameters: Value, output: Option<Value>) -> String {
        typescript_declarations(&[DeclaredTool {
            name,
            description,
            parameters: &parameters,
            output: output.as_ref(),
        }])
    }

    #[test]
    fn no_tools() {
        assert_eq!(typescript_declarations(&[]), "declare const tools: {};\n");
    }

    #[test]
    fn required_optional_and_output() {
        let parameters = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Where."},
                "limit": {"type": ["integer", "null"]}
            },
            "required": ["path"],
            "additionalProperties": false
        });
        let output = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(
            declare("read_file", "Reads a file.", parameters, Some(output)),
            "interface ReadFileArgs {\n  /** Where. */\n  path: string;\n  limit?: number | null;\n}\n\
             type ReadFileOutput = string[];\n\
             declare const tools: {\n  /** Reads a file. */\n  read_file(args: ReadFileArgs): Promise<ReadFileOutput>;\n};\n"
        );
    }

    #[test]
    fn rules_a_type_cannot_say_are_doc_tags() {
        let parameters = json!({
            "type": "object",
            "properties": {
                "slug": {"type": "string", "description": "The slug.", "pattern": "^[a-z]+$", "maxLength": 80},
                "when": {"type": "string", "format": "date-time", "deprecated": true},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "default": 20},
                "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}, "uniqueItems": true}, {"type": "null"}]}
            },
            "required": ["slug"]
        });
        assert_eq!(
            declare("tag", "Tags.", parameters, None),
            "interface TagArgs {\n  \
             /**\n   * The slug.\n   * @pattern ^[a-z]+$\n   * @maxLength 80\n   */\n  slug: string;\n  \
             /**\n   * @format date-time\n   * @deprecated\n   */\n  when?: string;\n  \
             /**\n   * @minimum 1\n   * @default 20\n   */\n  limit?: number | null;\n  \
             /** @uniqueItems true */\n  tags?: string[] | null;\n}\n\
             declare const tools: {\n  /** Tags. */\n  tag(args: TagArgs): Promise<unknown>;\n};\n"
        );
    }

    #[test]
    fn odd_names_enums_and_comment_ends() {
        let parameters = json!({
            "type": "object",
            "properties": {"mode": {"enum": ["a", "b", 1, true, null]}, "a b": {"const": "x"}},
            "required": ["mode", "a b"]
        });
        assert_eq!(
            declare("odd-name", "Ends */ early.", parameters, None),
            "interface OddNameArgs {\n  mode: \"a\" | \"b\" | 1 | true | null;\n  \"a b\": \"x\";\n}\n\
             declare const tools: {\n  /** Ends *\\/ early. */\n  \"odd-name\"(args: OddNameArgs): Promise<unknown>;\n};\n"
        );
    }

    #[test]
    fn recursive_definitions_and_maps() {
        let parameters = json!({
            "type": "object",
            "properties": {
                "tree": {"$ref": "#/$defs/node"},
                "tags": {"type": "object", "additionalProperties": {"type": "string"}}
            },
            "required": ["tree"],
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                    "required": ["children"]
                }
            }
        });
        assert_eq!(
            declare("walk", "", parameters, None),
            "interface WalkArgs {\n  tree: Node;\n  tags?: Record<string, string>;\n}\n\
             interface Node {\n  children: Node[];\n}\n\
             declare const tools: {\n  walk(args: WalkArgs): Promise<unknown>;\n};\n"
        );
    }

    #[test]
    fn colliding_names_are_numbered() {
        let empty = json!({"type": "object", "properties": {}});
        let tools = [
            DeclaredTool {
                name: "aB",
                description: "",
                parameters: &empty,
                output: None,
            },
            DeclaredTool {
                name: "a_b",
                description: "",
                parameters: &empty,
                output: None,
            },
        ];
        assert_eq!(
            typescript_declarations(&tools),
            "type ABArgs = Record<string, unknown>;\ntype AB2Args = Record<string, unknown>;\n\
             declare const tools: {\n  aB(args: ABArgs): Promise<unknown>;\n  a_b(args: AB2Args): Promise<unknown>;\n};\n"
        );
    }

    #[test]
    fn tagged_unions_and_intersections() {
        let parameters = json!({
            "oneOf": [
                {"type": "object", "properties": {"type": {"const": "a"}}, "required": ["type"]},
                {"type": "null"}
            ],
            "allOf": [{"type": "object", "properties": {"x": {}}}]
        });
        assert_eq!(
            declare("t", "", parameters, None),
            "type TArgs = ({\n  type: \"a\";\n} | null) & {\n  x?: unknown;\n};\n\
             declare const tools: {\n  t(args: TArgs): Promise<unknown>;\n};\n"
        );
    }
}
