//! The TypeScript declaration of the tools (`code_mode::typescript_declarations`): golden files
//! for the example tools and for an adversarial corpus of schemas, byte-identical output whatever
//! the order of the tools, and the real TypeScript compiler accepting programs that use the
//! declarations correctly and rejecting programs that misuse them.

use std::path::PathBuf;

use dsh_tools::code_mode::{DeclaredTool, typescript_declarations};
use dsh_tools::{ToolArgs, Value, json};
use dsh_tools_tests::coding_tools::{self, Workspace};
use dsh_tools_tests::golden::assert_golden_text;
use dsh_tools_tests::typescript;
use dsh_tools_tests::workload::SearchArgs;
use schemars::JsonSchema;
use serde::Deserialize;

/// A tool as the tests hold it: name, description, parameters, output.
type Owned = (String, String, Value, Option<Value>);

fn declared(tools: &[Owned]) -> Vec<DeclaredTool<'_>> {
    tools
        .iter()
        .map(|(name, description, parameters, output)| DeclaredTool {
            name,
            description,
            parameters,
            output: output.as_ref(),
        })
        .collect()
}

/// The example tools (`examples/coding_tools/`), with their output schemas.
fn example_tools() -> Vec<Owned> {
    let registry = coding_tools::registry(Workspace {
        root: PathBuf::from("/workspace"),
    })
    .expect("the example tools register");
    registry
        .schemas()
        .iter()
        .map(|schema| {
            let output = registry.get(&schema.name).and_then(|definition| {
                definition
                    .output_schema()
                    .map(|output| output.schema().to_json_schema())
            });
            (
                schema.name.clone(),
                schema.description.clone(),
                (*schema.parameters).clone(),
                output,
            )
        })
        .collect()
}

/// A shape, tagged the way serde writes `#[serde(tag = "type")]`.
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    /// A circle around the origin.
    Circle {
        /// Its radius.
        radius: f64,
    },
    /// An axis-aligned rectangle.
    Rectangle { width: f64, height: f64 },
    /// Nothing at all.
    Empty,
}

/// A list of shapes, each with an optional label.
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct DrawArgs {
    /// What to draw.
    shapes: Vec<Shape>,
    /// A label per shape id.
    labels: std::collections::BTreeMap<String, String>,
    /// The caption, when there is one.
    caption: Option<String>,
}

/// A directory tree (recursive).
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct Tree {
    /// The directory's name.
    name: String,
    /// What it holds.
    children: Vec<Tree>,
}

#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct CountTreeArgs {
    tree: Tree,
}

fn schemars_value<T: JsonSchema>() -> Value {
    let mut value = serde_json::to_value(schemars::schema_for!(T)).expect("a schema serializes");
    if let Some(object) = value.as_object_mut() {
        object.remove("$schema");
    }
    value
}

/// Schemas written to find the corners: tagged unions, maps, recursion, odd names, nullable
/// and optional properties, literal enums, descriptions that would close a comment.
fn adversarial_tools() -> Vec<Owned> {
    let tool = |name: &str, description: &str, parameters: Value, output: Option<Value>| {
        (name.to_owned(), description.to_owned(), parameters, output)
    };
    vec![
        tool(
            "draw",
            "Draws shapes (schemars, internally tagged).",
            schemars_value::<DrawArgs>(),
            Some(
                json!({"type": "object", "properties": {"drawn": {"type": "integer"}}, "required": ["drawn"]}),
            ),
        ),
        tool(
            "count_tree",
            "Counts the directories of a tree (schemars, recursive).",
            schemars_value::<CountTreeArgs>(),
            Some(json!({"type": "integer", "minimum": 0})),
        ),
        tool(
            "search_files",
            "The shared workload's arguments (derive(ToolArgs)).",
            SearchArgs::schema()
                .expect("the schema builds")
                .to_json_schema(),
            None,
        ),
        tool(
            "my-tool",
            "A name that is no identifier. Ends a comment */ early, /* opens one,\nand spans\n\nlines.",
            json!({
                "type": "object",
                "properties": {
                    "key with spaces": {"type": "string", "description": "Quoted */ key."},
                    "say \"hi\"": {"type": "boolean"},
                    "class": {"type": "string"},
                    "level": {"enum": ["low", "high"], "description": "How loud."},
                    "answer": {"const": 42},
                    "flags": {"enum": [true, 0, "x", null]},
                    "maybe": {"type": ["string", "null"]},
                    "maybe_ref": {"anyOf": [{"$ref": "#/$defs/point"}, {"type": "null"}]},
                    "either": {"oneOf": [{"type": "string", "description": "A name */ or\n a path."}, {"type": "integer"}, {"type": "null"}]}
                },
                "required": ["key with spaces", "level", "maybe"],
                "additionalProperties": false,
                "$defs": {
                    "point": {
                        "type": "object",
                        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                        "required": ["x", "y"]
                    }
                }
            }),
            None,
        ),
        tool(
            "class",
            "A reserved word as a name.",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            Some(json!(true)),
        ),
        tool(
            "2fast",
            "A name starting with a digit.",
            json!({
                "type": "object",
                "properties": {
                    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 2},
                    "rest": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "boolean"}},
                    "matrix": {"type": "array", "items": {"type": "array", "items": {"type": ["number", "null"]}}},
                    "anything": {},
                    "nothing": false,
                    "mixed": {
                        "type": "object",
                        "properties": {"id": {"type": "string"}},
                        "required": ["id"],
                        "additionalProperties": {"type": "integer"}
                    },
                    "counts": {
                        "type": "object",
                        "properties": {"total": {"type": "integer"}},
                        "required": ["total"],
                        "additionalProperties": {"type": "integer"}
                    },
                    "open": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": true},
                    "both": {"allOf": [{"$ref": "#/definitions/Base"}, {"type": "object", "properties": {"extra": {"type": "string"}}}]},
                    "strange": {"type": "weird"},
                    "unresolved": {"$ref": "https://example.com/schema"}
                },
                "required": ["pair", "mixed"],
                "definitions": {
                    "Base": {"type": "object", "properties": {"base": {"type": "boolean"}}, "required": ["base"]}
                }
            }),
            Some(json!({
                "$defs": {"Json": {"anyOf": [
                    {"type": ["string", "number", "boolean", "null"]},
                    {"type": "array", "items": {"$ref": "#/$defs/Json"}},
                    {"type": "object", "additionalProperties": {"$ref": "#/$defs/Json"}}
                ]}},
                "$ref": "#/$defs/Json"
            })),
        ),
        tool(
            "a_b",
            "Collides with aB.",
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
            None,
        ),
        tool(
            "aB",
            "Collides with a_b.",
            json!({"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]}),
            None,
        ),
        tool(
            "self_ref",
            "Arguments that refer to themselves (`#`).",
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}, "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
                "required": ["name"]
            }),
            None,
        ),
        tool(
            "promise",
            "Its definitions would shadow globals.",
            json!({
                "type": "object",
                "properties": {"p": {"$ref": "#/$defs/Promise"}, "r": {"$ref": "#/$defs/Record"}},
                "required": ["p"],
                "$defs": {"Promise": {"type": "string"}, "Record": {"type": "object", "properties": {"a": {"type": "string"}}}}
            }),
            None,
        ),
    ]
}

#[test]
fn example_tools_golden() {
    let tools = example_tools();
    assert_golden_text(
        "code_mode",
        "example_tools",
        &typescript_declarations(&declared(&tools)),
    );
}

#[test]
fn adversarial_golden() {
    let tools = adversarial_tools();
    assert_golden_text(
        "code_mode",
        "adversarial",
        &typescript_declarations(&declared(&tools)),
    );
}

#[test]
fn order_of_the_tools_does_not_matter() {
    for tools in [example_tools(), adversarial_tools()] {
        let forward = typescript_declarations(&declared(&tools));
        let mut reversed = declared(&tools);
        reversed.reverse();
        assert_eq!(forward, typescript_declarations(&reversed));
        assert_eq!(forward, typescript_declarations(&declared(&tools)));
        assert!(forward.ends_with("};\n"));
    }
}

#[test]
fn deep_schemas_end_in_unknown() {
    let mut schema = json!({"type": "string"});
    for _ in 0..200 {
        schema = json!({"type": "array", "items": schema});
    }
    let parameters = json!({"type": "object", "properties": {"deep": schema}});
    let text = typescript_declarations(&[DeclaredTool {
        name: "deep",
        description: "",
        parameters: &parameters,
        output: None,
    }]);
    assert!(text.contains("unknown[]"), "{text}");
    assert!(!text.contains("string"), "{text}");
}

/// A program using the example tools as declared.
const EXAMPLE_PROGRAM: &str = r#"export {};
const seen: unknown[] = [];
const text: string = await tools.read_file({ path: "src/lib.rs", offset: 10, limit: 5 });
const matches = await tools.search_files({ pattern: "fn main", path: ".", mode: "regex", include: ["*.rs"] });
for (const found of matches) {
  const words: number = await tools.word_count({ path: found.path, line: found.line });
  seen.push(found.text.length + words);
}
const ran = await tools.run_command({ command: "ls", description: null });
const code: number | null | undefined = ran.exit_code;
const edited: string = await tools.edit_file({ path: "a", old_text: "x", new_text: "y", replace_all: true });
seen.push(text, code, edited, ran.output);
"#;

/// A program using the adversarial corpus as declared.
const ADVERSARIAL_PROGRAM: &str = r#"export {};
const seen: unknown[] = [];
async function main(): Promise<void> {
  const drawn = await tools.draw({
    shapes: [{ type: "circle", radius: 1 }, { type: "rectangle", width: 2, height: 3 }, { type: "empty" }],
    labels: { a: "first" },
  });
  const count: number = drawn.drawn + (await tools.count_tree({ tree: { name: "/", children: [{ name: "a", children: [] }] } }));
  await tools["my-tool"]({ "key with spaces": "k", level: "high", maybe: null, maybe_ref: { x: 1, y: 2 }, flags: 0, either: "e" });
  const json = await tools["2fast"]({ pair: ["a", 1], rest: ["b", true, false], mixed: { id: "i", n: 3 }, counts: { total: 2, a: 1, b: 1 }, both: { base: true, extra: "e" } });
  if (Array.isArray(json)) { seen.push(json.length); }
  await tools.class({});
  await tools.aB({ n: "s" });
  await tools.a_b({ n: 1 });
  await tools.self_ref({ name: "a", next: { name: "b", next: null } });
  await tools.promise({ p: "text", r: { a: "b" } });
  await tools.search_files({ pattern: "p", path: ".", options: { follow_links: false } });
  seen.push(count);
}
void main();
"#;

/// Misuses, each with the error the compiler must report.
const MISUSES: &[(&str, &str, &str)] = &[
    (
        "wrong_argument_type.ts",
        "export {};\nawait tools.read_file({ path: 42 });\n",
        "TS2322",
    ),
    (
        "unknown_tool.ts",
        "export {};\nawait tools.delete_everything({});\n",
        "TS2339",
    ),
    (
        "missing_required.ts",
        "export {};\nawait tools.edit_file({ path: \"a\", old_text: \"x\" });\n",
        "TS2345",
    ),
    (
        "wrong_enum_literal.ts",
        "export {};\nawait tools.search_files({ pattern: \"p\", path: \".\", mode: \"glob\" });\n",
        "TS2322",
    ),
    (
        "wrong_tag.ts",
        "export {};\nawait tools.draw({ shapes: [{ type: \"triangle\" }], labels: {} });\n",
        "TS2322",
    ),
    (
        "not_a_string.ts",
        "export {};\nconst n: number = await tools.read_file({ path: \"a\" });\n",
        "TS2322",
    ),
    (
        "missing_property.ts",
        "export {};\nconst args: EditFileArgs = { path: \"a\", old_text: \"x\" };\nawait tools.edit_file(args);\n",
        "TS2741",
    ),
    (
        "unknown_property.ts",
        "export {};\nawait tools.read_file({ path: \"a\", encoding: \"utf-8\" });\n",
        "TS2353",
    ),
];

#[test]
fn typescript_accepts_correct_programs() {
    let examples = typescript_declarations(&declared(&example_tools()));
    let checked = typescript::check(
        "examples-correct",
        &[("tools.d.ts", &examples), ("program.ts", EXAMPLE_PROGRAM)],
    );
    assert!(checked.success, "{}", checked.diagnostics);
    let adversarial = typescript_declarations(&declared(&adversarial_tools()));
    let checked = typescript::check(
        "adversarial-correct",
        &[
            ("tools.d.ts", &adversarial),
            ("program.ts", ADVERSARIAL_PROGRAM),
        ],
    );
    assert!(checked.success, "{}", checked.diagnostics);
}

#[test]
fn typescript_rejects_misuses() {
    let examples = typescript_declarations(&declared(&example_tools()));
    let adversarial = typescript_declarations(&declared(&adversarial_tools()));
    for (file, program, code) in MISUSES {
        let declarations = if file.starts_with("wrong_tag") {
            &adversarial
        } else {
            &examples
        };
        let name = file.trim_end_matches(".ts");
        let checked = typescript::check(
            &format!("misuse-{name}"),
            &[("tools.d.ts", declarations), (file, program)],
        );
        assert!(!checked.success, "{file} type-checked:\n{program}");
        assert!(
            checked
                .diagnostics
                .lines()
                .any(|line| line.starts_with(*file) && line.contains(code)),
            "{file}: expected {code}, got:\n{}",
            checked.diagnostics
        );
    }
}
