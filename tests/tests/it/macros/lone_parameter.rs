//! A `#[tool]` with one parameter: the parameter's type decides, through the trait system
//! (`ToolArgs::OBJECT_STRUCT`), whether it is the whole argument object (a struct with named
//! fields) or one property named after the parameter (an enum, a newtype, a unit struct, a
//! number, a `Vec`, a map — and any parameter with a doc comment or `#[arg]` keys). Schema,
//! validation and conversion agree in every case, end to end through the registry.

use std::collections::BTreeMap;

use dsh_tools::{
    ToolArgs, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value,
    errors::{ConvertError, ErrorCode},
    json,
    present::ToolCallView,
    registry::RegistryErrorKind,
    schema::{Schema, SchemaError},
    tool,
};

/// How fast to go.
#[derive(ToolArgs, Debug)]
#[tool_args(rename_all = "lowercase")]
enum Mode {
    /// As fast as possible.
    Fast,
    /// Carefully.
    Slow,
}

/// A distance in meters.
#[derive(ToolArgs)]
struct Meters(f64);

/// Nothing at all.
#[derive(ToolArgs)]
struct Nothing;

#[derive(ToolArgs)]
enum Shape {
    Dot,
    Circle { radius: f64 },
}

#[derive(ToolArgs)]
struct Walk {
    /// Where to start.
    from: String,
    /// How many steps.
    #[arg(maximum = 100)]
    steps: u8,
}

/// Runs in a mode.
#[tool]
async fn run(mode: Mode) -> String {
    format!("{mode:?}")
}

/// Runs in a documented mode.
#[tool]
async fn run_documented(
    /** How fast to run. */
    mode: Mode,
) -> String {
    format!("{mode:?}")
}

/// Walks a distance.
#[tool]
async fn stride(distance: Meters) -> f64 {
    distance.0 * 2.0
}

/// Does nothing.
#[tool]
async fn idle(nothing: Nothing) -> bool {
    let Nothing = nothing;
    true
}

/// Draws a shape.
#[tool]
async fn draw(shape: Shape) -> f64 {
    match shape {
        Shape::Dot => 0.0,
        Shape::Circle { radius } => radius,
    }
}

/// Squares a number.
#[tool]
async fn square(n: u32) -> u64 {
    u64::from(n) * u64::from(n)
}

/// Joins words.
#[tool]
async fn join(words: Vec<String>) -> String {
    words.join(" ")
}

/// Adds up scores.
#[tool]
async fn total(scores: BTreeMap<String, u32>) -> u32 {
    scores.values().sum()
}

fn walk_card(walk: &Walk) -> Option<ToolCallView> {
    Some(ToolCallView::Terminal {
        title: format!("walk {} steps from {}", walk.steps, walk.from),
        description: None,
        cwd: None,
    })
}

/// A page of items: a generic struct with named fields.
#[derive(ToolArgs)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

/// Counts a page of numbers; the arguments are the fields of `Page<u8>`.
#[tool]
async fn count(page: Page<u8>) -> usize {
    let _ = page.next;
    page.items.len()
}

/// Walks; the arguments are the fields of `Walk`.
#[tool(present_call = walk_card)]
async fn walk(args: Walk) -> String {
    format!("{} + {}", args.from, args.steps)
}

/// Walks, taking the struct as one documented property.
#[tool]
async fn walk_nested(
    /** The walk to take. */
    walk: Walk,
) -> String {
    format!("{} + {}", walk.from, walk.steps)
}

/// A hand-written type that claims to be an object struct but is a string.
struct Liar;

impl ToolArgs for Liar {
    const OBJECT_STRUCT: bool = true;

    fn schema() -> Result<Schema, SchemaError> {
        String::schema()
    }

    fn from_json(_: &Value) -> Result<Self, ConvertError> {
        Ok(Self)
    }
}

/// Takes a liar.
#[tool]
async fn believe(liar: Liar) -> bool {
    let Liar = liar;
    true
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(RunTool).unwrap();
    let _ = registry.register(RunDocumentedTool).unwrap();
    let _ = registry.register(StrideTool).unwrap();
    let _ = registry.register(IdleTool).unwrap();
    let _ = registry.register(DrawTool).unwrap();
    let _ = registry.register(SquareTool).unwrap();
    let _ = registry.register(JoinTool).unwrap();
    let _ = registry.register(TotalTool).unwrap();
    let _ = registry.register(WalkTool).unwrap();
    let _ = registry.register(WalkNestedTool).unwrap();
    let _ = registry.register(CountTool).unwrap();
    registry
}

async fn call(registry: &ToolRegistry, name: &str, arguments: Value) -> ToolExecutionResult {
    registry
        .execute(ToolExecutionInput::new("call", name.to_owned(), arguments))
        .await
}

/// The schema of a tool with one required property `name` of schema `property`.
fn one_property(name: &str, property: Value) -> Value {
    json!({
        "type": "object",
        "properties": {name: property},
        "required": [name],
        "additionalProperties": false
    })
}

/// Asserts `tool`'s parameters, a valid call's value and an invalid call's error text.
async fn check(
    tool: &dyn ToolDefinition,
    parameters: Value,
    valid: Value,
    value: Value,
    invalid: Value,
    error: &str,
) {
    assert_eq!(*tool.parameters(), parameters, "{}", tool.name());
    let registry = registry();
    let result = call(&registry, tool.name(), valid).await;
    assert!(!result.is_error(), "{}: {}", tool.name(), result.text());
    assert_eq!(result.value(), Some(&value), "{}", tool.name());
    let result = call(&registry, tool.name(), invalid).await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(result.text(), error, "{}", tool.name());
}

#[tokio::test]
async fn a_unit_enum_is_one_property() {
    let mode = json!({
        "description": "How fast to go.\n\n- `fast`: As fast as possible.\n- `slow`: Carefully.",
        "type": "string",
        "enum": ["fast", "slow"]
    });
    check(
        &RunTool,
        one_property("mode", mode),
        json!({"mode": "slow"}),
        json!("Slow"),
        json!("slow"),
        "Error: invalid arguments: \"arguments\" must be an object",
    )
    .await;
}

#[tokio::test]
async fn a_documented_enum_is_one_property_that_keeps_its_value_notes() {
    let mode = json!({
        "description": "How fast to run.\n\n- `fast`: As fast as possible.\n- `slow`: Carefully.",
        "type": "string",
        "enum": ["fast", "slow"]
    });
    check(
        &RunDocumentedTool,
        one_property("mode", mode),
        json!({"mode": "fast"}),
        json!("Fast"),
        json!({"mode": "medium"}),
        "Error: invalid arguments: \"mode\" must be one of [\"fast\",\"slow\"]",
    )
    .await;
}

#[tokio::test]
async fn a_newtype_is_one_property() {
    check(
        &StrideTool,
        one_property(
            "distance",
            json!({"description": "A distance in meters.", "type": "number"}),
        ),
        json!({"distance": 1.5}),
        json!(3.0),
        json!({"distance": "far"}),
        "Error: invalid arguments: \"distance\" must be a number",
    )
    .await;
}

#[tokio::test]
async fn a_unit_struct_is_one_property() {
    check(
        &IdleTool,
        one_property(
            "nothing",
            json!({"description": "Nothing at all.", "type": "null"}),
        ),
        json!({"nothing": null}),
        json!(true),
        json!({}),
        "Error: invalid arguments: missing required property \"nothing\"",
    )
    .await;
}

#[tokio::test]
async fn an_enum_with_data_is_one_property() {
    let shape = json!({"oneOf": [
        {"type": "string", "enum": ["Dot"]},
        {
            "type": "object",
            "properties": {"Circle": {
                "type": "object",
                "properties": {"radius": {"type": "number"}},
                "required": ["radius"],
                "additionalProperties": false
            }},
            "required": ["Circle"],
            "additionalProperties": false
        }
    ]});
    check(
        &DrawTool,
        one_property("shape", shape),
        json!({"shape": {"Circle": {"radius": 2.5}}}),
        json!(2.5),
        json!({"Circle": {"radius": 2.5}}),
        "Error: invalid arguments: missing required property \"shape\"; \"Circle\" is not a declared property (additionalProperties: false)",
    )
    .await;
}

#[tokio::test]
async fn standard_types_are_one_property() {
    check(
        &SquareTool,
        one_property(
            "n",
            json!({"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u64}),
        ),
        json!({"n": 12}),
        json!(144),
        json!(12),
        "Error: invalid arguments: \"arguments\" must be an object",
    )
    .await;
    check(
        &JoinTool,
        one_property(
            "words",
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        json!({"words": ["a", "b"]}),
        json!("a b"),
        json!(["a", "b"]),
        "Error: invalid arguments: \"arguments\" must be an object",
    )
    .await;
    check(
        &TotalTool,
        one_property(
            "scores",
            json!({
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u64}
            }),
        ),
        json!({"scores": {"a": 1, "b": 2}}),
        json!(3),
        json!({"a": 1}),
        "Error: invalid arguments: missing required property \"scores\"; \"a\" is not a declared property (additionalProperties: false)",
    )
    .await;
}

#[tokio::test]
async fn a_struct_with_named_fields_is_the_whole_argument_object() {
    let walk = json!({
        "type": "object",
        "properties": {
            "from": {"description": "Where to start.", "type": "string"},
            "steps": {"description": "How many steps.", "type": "integer", "minimum": 0, "maximum": 100}
        },
        "required": ["from", "steps"],
        "additionalProperties": false
    });
    check(
        &WalkTool,
        walk.clone(),
        json!({"from": "home", "steps": 3}),
        json!("home + 3"),
        json!({"args": {"from": "home", "steps": 3}}),
        "Error: invalid arguments: missing required property \"from\"; missing required property \"steps\"; \"args\" is not a declared property (additionalProperties: false)",
    )
    .await;
    // The presenter takes `&Walk`: the generated arguments struct dereferences to it.
    let card = WalkTool.present_call(&json!({"from": "home", "steps": 3}));
    assert_eq!(
        card,
        Some(ToolCallView::Terminal {
            title: "walk 3 steps from home".into(),
            description: None,
            cwd: None,
        })
    );
    // Documented, the same struct is one property carrying the doc.
    let mut nested = walk;
    nested
        .as_object_mut()
        .unwrap()
        .insert("description".into(), json!("The walk to take."));
    check(
        &WalkNestedTool,
        one_property("walk", nested),
        json!({"walk": {"from": "home", "steps": 3}}),
        json!("home + 3"),
        json!({"walk": {"from": "home", "steps": 300}}),
        "Error: invalid arguments: \"walk.steps\" must be <= 100",
    )
    .await;
}

#[tokio::test]
async fn a_generic_struct_with_named_fields_is_the_whole_argument_object() {
    check(
        &CountTool,
        json!({
            "description": "A page of items: a generic struct with named fields.",
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
                "next": {"type": ["string", "null"]}
            },
            "required": ["items"],
            "additionalProperties": false
        }),
        json!({"items": [1, 2, 3]}),
        json!(3),
        json!({"page": {"items": []}}),
        "Error: invalid arguments: missing required property \"items\"; \"page\" is not a declared property (additionalProperties: false)",
    )
    .await;
}

#[test]
fn a_type_that_claims_an_object_struct_must_describe_an_object() {
    let error = ToolRegistry::new().register(BelieveTool).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::UnsupportedSchema);
    assert!(
        error.to_string().contains("`OBJECT_STRUCT`"),
        "{}",
        error.to_string()
    );
}
