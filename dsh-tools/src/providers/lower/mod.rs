//! Lowering one tool's canonical `parameters` into a provider's schema subset, recording every
//! change in the [`LoweringReport`].
//!
//! The passes run in the order the reference transformers converge on:
//! 1. inline local `$ref`s (recursive definitions stay under `$defs`, are cut, or block strict
//!    mode, as the dialect says);
//! 2. the root: a union at the root is merged into one object, a missing `type` is added;
//! 3. per node, top down: merge `allOf`, `oneOf` → `anyOf`, widen `prefixItems`, nullable forms,
//!    `const` → `enum`, close objects and require every property (optional ones made nullable),
//!    then the children, then move unsupported constraints into the `description` and drop
//!    annotation-only keys;
//! 4. check the size limits strict modes publish.
//!
//! A strict view sends a map (an object keyed by free strings) as an array of `{key, value}`
//! pairs, which the adapter maps back. A strict view that meets something it cannot express
//! without changing the tool's meaning (a map beside declared properties, an untyped value,
//! recursion where unsupported) stops with [`Blocked`]; the
//! caller then lowers the tool for the dialect's non-strict view and reports the fallback.
//!
//! This file holds the entry points and the driver; each pass has its file: `refs` (1), `root`
//! (2), `node`, `nullable`, `maps`, `untyped`, `objects` and `unsupported` (3), `strict_limits` (4);
//! `shapes` holds the small JSON Schema helpers they share.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::dialect::{Dialect, Profile, Recursion};
use super::nulls::{NullPlan, ToolNullPlan};
use super::report::{Change, LoweringReport};

pub(crate) use self::shapes::escape;

mod maps;
mod node;
mod nullable;
mod objects;
mod refs;
mod root;
mod shapes;
mod strict_limits;
mod unsupported;
mod untyped;

/// One tool's schema as the provider will see it.
#[derive(Clone, Debug)]
pub(crate) struct LoweredSchema {
    pub(crate) parameters: Value,
    /// Whether the tool is sent strict.
    pub(crate) strict: bool,
    /// Nulls to remove from the model's arguments before the call runs.
    pub(crate) nulls: Option<ToolNullPlan>,
    /// Where (JSON Pointers into `parameters`) maps are sent as `{key, value}` pairs, to map
    /// back before the call runs.
    pub(crate) maps: Vec<String>,
}

/// Why a tool cannot be strict.
#[derive(Debug)]
pub(crate) struct Blocked {
    pub(crate) path: String,
    pub(crate) reason: String,
}

/// Lowers `parameters` of tool `tool` for `dialect`, falling back to the non-strict view when
/// the strict one cannot express it.
pub(crate) fn lower_tool(
    tool: &str,
    parameters: &Value,
    dialect: Dialect,
    report: &mut LoweringReport,
) -> LoweredSchema {
    let profile = dialect.profile();
    match Lowerer::new(tool, profile, parameters).run() {
        Ok((lowered, entries)) => {
            report.entries.extend(entries.entries);
            lowered
        }
        Err(blocked) => {
            // Only strict views block for what they cannot express; a view with no strict
            // mode blocks only on a schema it cannot read at all, and sends it as written.
            let change = if profile.strict {
                Change::StrictFallback
            } else {
                Change::Warning
            };
            report.push(tool, &blocked.path, change, blocked.reason);
            lower_non_strict(tool, parameters, dialect, report)
        }
    }
}

/// Lowers `parameters` for the dialect's non-strict view (which never blocks).
pub(crate) fn lower_non_strict(
    tool: &str,
    parameters: &Value,
    dialect: Dialect,
    report: &mut LoweringReport,
) -> LoweredSchema {
    let profile = dialect.fallback_profile();
    match Lowerer::new(tool, profile, parameters).run() {
        Ok((lowered, entries)) => {
            report.entries.extend(entries.entries);
            lowered
        }
        // Non-strict profiles never block; keep the schema as written if one ever did.
        Err(blocked) => {
            report.push(tool, &blocked.path, Change::Warning, blocked.reason);
            LoweredSchema {
                parameters: parameters.clone(),
                strict: false,
                nulls: None,
                maps: Vec::new(),
            }
        }
    }
}

struct Lowerer<'a> {
    tool: &'a str,
    profile: Profile,
    root: &'a Value,
    report: LoweringReport,
    /// `$ref` targets being inlined, innermost last.
    resolving: Vec<String>,
    /// Recursive targets: pointer → definition name.
    recursive: BTreeMap<String, String>,
    nodes: usize,
    nulls: HashMap<String, NullPlan>,
    /// Pointers (in the lowered schema) of the maps sent as pairs.
    maps: Vec<String>,
}

/// Where a node sits, for the passes that care.
#[derive(Clone, Copy)]
struct Place {
    depth: usize,
}

impl<'a> Lowerer<'a> {
    fn new(tool: &'a str, profile: Profile, root: &'a Value) -> Self {
        Self {
            tool,
            profile,
            root,
            report: LoweringReport::default(),
            resolving: Vec::new(),
            recursive: BTreeMap::new(),
            nodes: 0,
            nulls: HashMap::new(),
            maps: Vec::new(),
        }
    }

    fn note(&mut self, path: &str, change: Change, detail: impl Into<String>) {
        self.report.push(self.tool, path, change, detail);
    }

    fn block(&self, path: &str, reason: impl Into<String>) -> Blocked {
        Blocked {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }

    fn run(mut self) -> Result<(LoweredSchema, LoweringReport), Blocked> {
        let profile = self.profile;
        let mut root = if profile.rewrite {
            self.inline(self.root, "", 0)?
        } else {
            self.root.clone()
        };
        let mut defs = Map::new();
        if profile.rewrite && !self.recursive.is_empty() {
            match profile.recursion {
                Recursion::Block => {
                    let (pointer, _) = self.recursive.iter().next().expect("not empty");
                    return Err(self.block(
                        pointer.trim_start_matches('#'),
                        format!(
                            "recursive schema ({pointer} refers to itself): this strict mode \
                             cannot express recursion"
                        ),
                    ));
                }
                Recursion::Cut => {
                    let definitions = self.recursive_definitions()?;
                    self.unroll(&mut root, &definitions);
                }
                Recursion::Keep => defs = self.recursive_definitions()?,
            }
        }
        self.lower_root(&mut root)?;
        let mut nulls = None;
        if profile.rewrite {
            let Value::Object(node) = &mut root else {
                return Err(self.block("", "the parameters are not a schema object"));
            };
            let mut root_plan = self.node(node, "", Place { depth: 0 })?;
            let mut lowered_defs = Map::new();
            for (name, mut definition) in defs {
                let path = format!("/$defs/{name}");
                if let Value::Object(node) = &mut definition {
                    let mut plan = self.node(node, &path, Place { depth: 1 })?;
                    plan.prune();
                    self.nulls.insert(name.clone(), plan);
                }
                lowered_defs.insert(name, definition);
            }
            if !lowered_defs.is_empty() {
                node.insert("$defs".to_owned(), Value::Object(lowered_defs));
            }
            root_plan.prune();
            let defs_matter = self.nulls.values().any(|plan| !plan.is_noop());
            if !root_plan.is_noop() || defs_matter {
                if self.recursive.contains_key("#") {
                    self.nulls.insert("#".to_owned(), root_plan.clone());
                }
                nulls = Some(ToolNullPlan {
                    root: root_plan,
                    defs: std::mem::take(&mut self.nulls),
                });
            }
        }
        if profile.strict && profile.require_all {
            self.check_openai_limits(&root)?;
        }
        let maps = std::mem::take(&mut self.maps);
        Ok((
            LoweredSchema {
                parameters: root,
                strict: profile.strict,
                nulls,
                maps,
            },
            self.report,
        ))
    }
}
