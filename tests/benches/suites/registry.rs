//! What changing the registry costs, per tool, as the registry grows: registering, disposing,
//! registering into an agent scope, creating and disposing scopes, and the first `schemas()`
//! after a change (the cached call for reference); and deferred tools: a keyword search over the
//! 538-tool catalog and over 10,000 tools, and the first `schemas()` after a load.
//!
//! Each case does its work for 10, 1,000 and 10,000 tools (or scopes); the figures are per tool,
//! so a cost that grows with the registry shows as a ratio above 1 to the 10-tool case. The tools
//! are raw definitions that keep their small argument schema in an `Arc` (as macro tools and an
//! MCP import can), so registering one copies no JSON and the figures are the registry's own;
//! `register_fn_tools_10000` registers raw-schema `FnTool`s, which keep their parameters in an
//! `Arc` too and so cost what a shared definition costs. Building the definitions, the registry
//! and the handles happens outside the measured section; so does dropping them.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use dsh_tools::registry::{ToolSearchMode, ToolSearchQuery};
use dsh_tools::{
    FnTool, Registration, ToolDefinition, ToolError, ToolRegistry, ToolRun, Value, call::BoxFuture,
    json, registry::IntoToolDefinition,
};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use dsh_tools_tests::tool_catalog;

pub(crate) const SUITE: SuiteDef = SuiteDef::new("registry", suite);

/// The registry sizes every case runs at.
const SIZES: [(u64, &str); 3] = [(10, "10"), (1_000, "1000"), (10_000, "10000")];

/// A raw tool whose schema is shared: registering it copies no JSON.
struct SharedTool {
    name: String,
    parameters: Arc<Value>,
}

impl ToolDefinition for SharedTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        "Reads one file of the workspace."
    }

    fn parameters(&self) -> &Value {
        &self.parameters
    }

    fn shared_parameters(&self) -> Arc<Value> {
        Arc::clone(&self.parameters)
    }

    fn execute<'a>(
        &'a self,
        _arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async { Ok(json!("ok")) })
    }
}

fn parameters() -> Value {
    json!({
        "type": "object",
        "properties": {"path": {"type": "string", "description": "File path"}},
        "required": ["path"],
        "additionalProperties": false
    })
}

/// `count` distinct tools sharing one schema, built once per case so that each iteration
/// registers the same definitions.
fn definitions(count: u64) -> Vec<Arc<dyn ToolDefinition>> {
    let parameters = Arc::new(parameters());
    (0..count)
        .map(|index| {
            SharedTool {
                name: format!("tool_{index:05}"),
                parameters: Arc::clone(&parameters),
            }
            .into_definition()
        })
        .collect()
}

/// `count` distinct raw-schema `FnTool`s with the same schema, each given its own copy (which
/// the tool keeps in an `Arc` and shares with the registry).
fn fn_tools(count: u64) -> Vec<Arc<dyn ToolDefinition>> {
    (0..count)
        .map(|index| {
            FnTool::builder(
                format!("tool_{index:05}"),
                "Reads one file of the workspace.",
            )
            .raw_parameters(parameters())
            .handler(|_, _| async { Ok(json!("ok")) })
            .into_definition()
        })
        .collect()
}

/// How many iterations a case over `count` tools is counted at.
fn profile_iterations(count: u64) -> u64 {
    (20_000 / count).max(2)
}

fn register(count: u64) -> Case {
    register_each(
        id("register", count),
        format!("`register` {count} tools into the global layer"),
        move || definitions(count),
    )
}

/// Registers every tool `make` builds into a fresh registry, one `register` call each.
fn register_each(
    id: &'static str,
    about: String,
    make: impl FnOnce() -> Vec<Arc<dyn ToolDefinition>> + 'static,
) -> Case {
    Case::with_fixture(id, about, make, |tools, iterations, meter| {
        for _ in 0..iterations {
            let registry = ToolRegistry::new();
            let mut handles = Vec::with_capacity(tools.len());
            meter.measure(|| {
                for tool in tools.iter() {
                    handles.push(registry.register(Arc::clone(tool)).expect("distinct"));
                }
            });
            drop(black_box(handles));
        }
    })
}

fn dispose(count: u64) -> Case {
    Case::with_fixture(
        id("dispose", count),
        format!("`Registration::dispose` of {count} global tools"),
        move || definitions(count),
        |tools, iterations, meter| {
            for _ in 0..iterations {
                let registry = ToolRegistry::new();
                let handles: Vec<Registration> = tools
                    .iter()
                    .map(|tool| registry.register(Arc::clone(tool)).expect("distinct"))
                    .collect();
                meter.measure(|| {
                    for handle in &handles {
                        black_box(handle.dispose());
                    }
                });
            }
        },
    )
}

fn register_scoped(count: u64) -> Case {
    Case::with_fixture(
        id("scope_register", count),
        format!("`ToolScope::register` {count} tools into one agent scope"),
        move || definitions(count),
        |tools, iterations, meter| {
            for _ in 0..iterations {
                let registry = ToolRegistry::new();
                let scope = registry.create_child("agent").expect("fresh");
                let mut handles = Vec::with_capacity(tools.len());
                meter.measure(|| {
                    for tool in tools.iter() {
                        handles.push(scope.register(Arc::clone(tool)).expect("distinct"));
                    }
                });
                drop(black_box(handles));
            }
        },
    )
}

fn scopes(count: u64) -> Case {
    let agents: Vec<String> = (0..count)
        .map(|index| format!("agent_{index:05}"))
        .collect();
    Case::custom(
        id("scopes", count),
        format!("create {count} agent scopes under one parent, then dispose each"),
        move |iterations, meter| {
            for _ in 0..iterations {
                let registry = ToolRegistry::new();
                let parent = registry.create_child("parent").expect("fresh");
                meter.measure(|| {
                    let children: Vec<_> = agents
                        .iter()
                        .map(|agent| parent.create_child(agent.as_str()).expect("fresh"))
                        .collect();
                    for child in &children {
                        black_box(child.dispose());
                    }
                });
            }
        },
    )
}

/// A registry with `count` tools (their handles kept) and a spare tool to change it with.
struct Filled {
    registry: ToolRegistry,
    _handles: Vec<Registration>,
    spare: Arc<dyn ToolDefinition>,
}

fn filled(count: u64) -> Filled {
    let registry = ToolRegistry::new();
    let handles = definitions(count)
        .into_iter()
        .map(|tool| registry.register(tool).expect("distinct"))
        .collect();
    let spare = FnTool::builder("spare", "Changes the registry.")
        .handler(|_, _| async { Ok(json!("ok")) })
        .into_definition();
    Filled {
        registry,
        _handles: handles,
        spare,
    }
}

fn schemas_after_change(count: u64) -> Case {
    Case::with_fixture(
        id("schemas_after_change", count),
        format!("the first `schemas()` after a change, {count} tools"),
        move || filled(count),
        |filled, iterations, meter: &mut Meter| {
            let Filled {
                registry, spare, ..
            } = filled;
            for _ in 0..iterations {
                // A change outside the measured section empties the cache.
                let change = registry.register(Arc::clone(spare)).expect("spare is free");
                black_box(meter.measure(|| registry.schemas()));
                change.dispose();
                black_box(meter.measure(|| registry.schemas()));
            }
        },
    )
    // Each iteration computes the schemas twice (after registering and after disposing).
    .per(2 * count, "tool")
}

/// A registry of `count` catalog tools (`dsh_tools_tests::tool_catalog`), every one deferred,
/// with its search index built (one search ran).
fn deferred_catalog(count: usize) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let tools: Vec<FnTool> = tool_catalog::scaled_catalog(count)
        .iter()
        .map(|tool| tool.to_tool(true))
        .collect();
    registry.register_all(tools).expect("distinct names");
    let _ = registry.search_tools(&ToolSearchQuery::new(
        "warm the index",
        ToolSearchMode::Keywords,
    ));
    registry
}

/// Queries of every kind of length, one per iteration in turn.
const SEARCHES: &[&str] = &[
    "cancel my hotel reservation",
    "send an invoice to the customer for the amount due",
    "scale the web deployment",
    "weather",
];

fn search(count: usize, id: &'static str) -> Case {
    Case::with_fixture(
        id,
        format!("a keyword `search_tools` over {count} deferred tools (index built)"),
        move || deferred_catalog(count),
        |registry, iterations, meter| {
            let queries: Vec<ToolSearchQuery> = SEARCHES
                .iter()
                .map(|text| ToolSearchQuery::new(*text, ToolSearchMode::Keywords))
                .collect();
            meter.measure(|| {
                for iteration in 0..iterations {
                    let query = &queries[iteration as usize % queries.len()];
                    black_box(registry.search_tools(query).expect("searches"));
                }
            });
        },
    )
    .per(1, "search")
}

/// A registry of `count` catalog tools, every one deferred, with its search index built, the
/// handles of its tools, and one more catalog tool, not registered.
struct Searched {
    registry: ToolRegistry,
    tools: Vec<FnTool>,
    handles: Vec<Registration>,
    spare: FnTool,
}

fn searched_catalog(count: usize) -> Searched {
    let registry = ToolRegistry::new();
    let mut tools: Vec<FnTool> = tool_catalog::scaled_catalog(count + 1)
        .iter()
        .map(|tool| tool.to_tool(true))
        .collect();
    let spare = tools.pop().expect("one more tool");
    let handles = registry
        .register_all(tools.clone())
        .expect("distinct names");
    let _ = registry.search_tools(&ToolSearchQuery::new(
        "warm the index",
        ToolSearchMode::Keywords,
    ));
    Searched {
        registry,
        tools,
        handles,
        spare,
    }
}

/// A change of a searched registry (the iteration's number given): what undoes it is returned.
type Change = fn(&mut Searched, usize) -> Box<dyn FnOnce(&mut Searched)>;

/// The first keyword search after one change of a registry of 10,000 deferred tools (the
/// searches of `search_10000` in turn): `change` makes the change and returns what undoes it,
/// both outside the measured section, and a search after the undoing brings the index up to
/// date again, so each measured search takes in exactly one change.
fn search_after(id: &'static str, what: &str, change: Change) -> Case {
    Case::with_fixture(
        id,
        format!("the first keyword `search_tools` after {what}, 10000 deferred tools"),
        || searched_catalog(10_000),
        move |searched, iterations, meter| {
            let queries: Vec<ToolSearchQuery> = SEARCHES
                .iter()
                .map(|text| ToolSearchQuery::new(*text, ToolSearchMode::Keywords))
                .collect();
            for iteration in 0..iterations as usize {
                let undo = change(searched, iteration);
                let query = &queries[iteration % queries.len()];
                black_box(
                    meter.measure(|| searched.registry.search_tools(query).expect("searches")),
                );
                undo(searched);
                black_box(searched.registry.search_tools(query).expect("searches"));
            }
        },
    )
    .per(1, "search")
    .vs("search_10000")
    .target(Target::Wall(Duration::from_millis(1)))
    .profile_iterations(200)
}

/// Registers the spare tool (a catalog tool with a description of its own); undone by its
/// disposal.
fn register_one(searched: &mut Searched, _: usize) -> Box<dyn FnOnce(&mut Searched)> {
    let handle = searched
        .registry
        .register(searched.spare.clone())
        .expect("the spare is free");
    Box::new(move |_| {
        handle.dispose();
    })
}

/// Disposes one catalog tool (a different one each time); undone by registering it again.
fn remove_one(searched: &mut Searched, iteration: usize) -> Box<dyn FnOnce(&mut Searched)> {
    let at = iteration * 7_919 % searched.handles.len();
    assert!(searched.handles[at].dispose());
    let tool = searched.tools[at].clone();
    Box::new(move |searched| {
        searched.handles[at] = searched.registry.register(tool).expect("free again");
    })
}

/// A load of one deferred tool into a scope of a registry of 10,000 deferred tools, each load
/// of a tool not loaded before (the scope is emptied outside the measured section).
fn load_10000() -> Case {
    Case::with_fixture(
        "load_10000",
        "`load_tools` of one tool into a scope, 10000 tools, all deferred",
        || {
            let registry = deferred_catalog(10_000);
            let scope = registry.create_child("loader").expect("a new scope");
            (registry, scope)
        },
        |(_, scope), iterations, meter| {
            let names: Vec<String> = tool_catalog::scaled_catalog(10_000)
                .into_iter()
                .map(|tool| tool.name)
                .collect();
            for iteration in 0..iterations {
                let name = &names[iteration as usize % names.len()];
                black_box(meter.measure(|| scope.load_tools([name]).expect("a deferred tool")));
                if iteration as usize % 20 == 19 {
                    scope.unload_tools().expect("a live scope");
                }
            }
        },
    )
    .per(1, "load")
}

fn schemas_after_load() -> Case {
    Case::with_fixture(
        "schemas_after_load_538",
        "the first `schemas()` after a load, 538 tools, all deferred",
        || deferred_catalog(538),
        |registry, iterations, meter| {
            let names: Vec<String> = tool_catalog::catalog()
                .into_iter()
                .map(|tool| tool.name)
                .collect();
            for iteration in 0..iterations {
                // A load outside the measured section empties the schema cache.
                let name = &names[iteration as usize % names.len()];
                registry.load_tools([name]).expect("a deferred tool");
                black_box(meter.measure(|| registry.schemas()));
                if iteration as usize % 20 == 19 {
                    registry.unload_tools().expect("the global layer");
                }
            }
        },
    )
    .per(1, "schemas")
}

fn id(kind: &str, count: u64) -> &'static str {
    let size = SIZES
        .iter()
        .find(|(size, _)| *size == count)
        .map(|(_, name)| *name)
        .expect("a bench size");
    // Case ids are `'static`; a handful of them are leaked once per process.
    Box::leak(format!("{kind}_{size}").into_boxed_str())
}

fn suite() -> Suite {
    let mut suite = Suite::new("registry")
        .timing(Duration::from_millis(500), Duration::from_secs(2))
        .sample_size(10);
    type Maker = fn(u64) -> Case;
    let kinds: [(&str, Maker, &str); 4] = [
        ("register", register, "tool"),
        ("dispose", dispose, "tool"),
        ("scope_register", register_scoped, "tool"),
        ("scopes", scopes, "scope"),
    ];
    for (kind, make, unit) in kinds {
        let smallest = id(kind, SIZES[0].0);
        for (count, _) in SIZES {
            let mut case = make(count)
                .per(count, unit)
                .profile_iterations(profile_iterations(count));
            if count != SIZES[0].0 {
                case = case.vs(smallest).target(Target::Note("flat"));
            }
            if kind == "register" && count == 10_000 {
                case = case.target(Target::Wall(Duration::from_millis(50)));
            }
            suite = suite.case(case);
        }
    }
    suite = suite.case(
        register_each(
            "register_fn_tools_10000",
            "`register` 10000 raw-schema `FnTool`s (their parameters shared, not copied)"
                .to_owned(),
            || fn_tools(10_000),
        )
        .per(10_000, "tool")
        .profile_iterations(2)
        .vs("register_10000"),
    );
    for (count, _) in SIZES {
        suite = suite.case(
            schemas_after_change(count)
                .target(Target::Instructions(2_000))
                .profile_iterations(profile_iterations(count).min(200)),
        );
    }
    suite = suite
        .case(search(538, "search_538").target(Target::Instructions(100_000)))
        .case(
            search(10_000, "search_10000")
                .vs("search_538")
                .target(Target::Note(
                    "grows with the tools a query's terms occur in",
                ))
                .profile_iterations(200),
        )
        .case(search_after(
            "search_after_register_10000",
            "one registration",
            register_one,
        ))
        .case(search_after(
            "search_after_remove_10000",
            "one removal",
            remove_one,
        ))
        .case(schemas_after_load().profile_iterations(100))
        .case(
            load_10000()
                .target(Target::Wall(Duration::from_micros(100)))
                .profile_iterations(100),
        );
    suite.case(Case::with_fixture(
        "schemas_cached",
        "`schemas()` again, nothing changed (1,000 tools)",
        || filled(1_000),
        |filled, iterations, meter| {
            meter.measure(|| {
                for _ in 0..iterations {
                    black_box(filled.registry.schemas());
                }
            });
        },
    ))
}
