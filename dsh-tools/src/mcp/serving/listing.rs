//! What `tools/list` shows: the served scope's schemas as MCP tools, built once per registry
//! snapshot and paged with a cursor.
//!
//! The listing is derived from [`schemas`](crate::ToolRegistry::schemas), which the registry
//! caches until it changes, so `inputSchema` is exactly what `schemas()` shows and a large
//! registry is converted once, not on every request. The cursor is the name of the last tool of
//! the previous page: tools are sorted by name, so a page continues after it even when tools were
//! registered or disposed in between.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model as mcp;
use serde_json::{Map, Value};

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::mcp::convert::{annotations_to_mcp, icon_to_mcp};
use crate::mcp::task_support::task_support_meta;
use dsh_tools_schema::CompiledSchema;

/// The served tools as MCP describes them, sorted by name.
#[derive(Debug)]
pub(crate) struct Listing {
    /// The schemas the listing was built from; a different `Arc` means the registry changed.
    source: Arc<[ToolSchema]>,
    tools: Vec<mcp::Tool>,
}

impl Listing {
    /// The tools, in name order.
    pub(crate) fn tools(&self) -> &[mcp::Tool] {
        &self.tools
    }

    /// One page: the tools after `cursor` (all of them without one), at most `page_size`, and the
    /// cursor of the next page when more follow.
    pub(crate) fn page(&self, cursor: Option<&str>, page_size: usize) -> mcp::ListToolsResult {
        let start = cursor.map_or(0, |after| {
            self.tools.partition_point(|tool| &*tool.name <= after)
        });
        let end = start.saturating_add(page_size.max(1)).min(self.tools.len());
        let page = self.tools[start..end].to_vec();
        let mut result = mcp::ListToolsResult::with_all_items(page);
        if end < self.tools.len() {
            result.next_cursor = Some(self.tools[end - 1].name.to_string());
        }
        result
    }
}

/// The listing of one served scope, rebuilt only when the registry's schemas changed.
#[derive(Debug, Default)]
pub(crate) struct ListingCache {
    current: Mutex<Option<Arc<Listing>>>,
}

impl ListingCache {
    /// The listing of `schemas` (what the served layer or scope shows now), each tool's
    /// annotations and output schema from the `definition` its name resolves to there.
    pub(crate) fn current(
        &self,
        schemas: Arc<[ToolSchema]>,
        definition: impl Fn(&str) -> Option<Arc<dyn ToolDefinition>>,
    ) -> Arc<Listing> {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(listing) = &*current
            && Arc::ptr_eq(&listing.source, &schemas)
        {
            return Arc::clone(listing);
        }
        let tools = schemas
            .iter()
            .map(|schema| mcp_tool(schema, definition(&schema.name).as_deref()))
            .collect();
        let listing = Arc::new(Listing {
            source: schemas,
            tools,
        });
        *current = Some(Arc::clone(&listing));
        listing
    }
}

/// One tool as `tools/list` shows it: name, title, description, `inputSchema` (the schema the
/// model sees, unchanged), `outputSchema` when the tool declares one, annotations and icons,
/// and the tool's task support in `_meta` when it is not forbidden (`task_support.rs`).
///
/// Since 2026-07-28 an output schema may describe any JSON type; rmcp leaves out the ones whose
/// root is not `"type": "object"` for a peer on an earlier revision, which knew only objects.
fn mcp_tool(schema: &ToolSchema, definition: Option<&dyn ToolDefinition>) -> mcp::Tool {
    let parameters: &Value = &schema.parameters;
    let input_schema = match parameters {
        Value::Object(object) => object.clone(),
        // MCP requires an object schema; a raw definition with anything else says nothing.
        _ => Map::from_iter([("type".to_owned(), Value::from("object"))]),
    };
    let mut tool = mcp::Tool::new(
        schema.name.clone(),
        schema.description.clone(),
        Arc::new(input_schema),
    );
    let Some(definition) = definition else {
        return tool;
    };
    let options = definition.options();
    let hints = &options.annotations;
    if let Some(title) = &hints.title {
        tool = tool.with_title(title.clone());
    }
    let icons = &options.icons;
    if !icons.is_empty() {
        tool = tool.with_icons(icons.iter().map(icon_to_mcp).collect());
    }
    if let Some(annotations) = annotations_to_mcp(hints) {
        tool = tool.with_annotations(annotations);
    }
    if let Some(output) = output_schema(definition.output_schema()) {
        tool = tool.with_raw_output_schema(Arc::new(output));
    }
    if let Some((key, entry)) = task_support_meta(options.task_support) {
        let mut meta = tool.meta.take().unwrap_or_default();
        meta.insert(key, entry);
        tool = tool.with_meta(meta);
    }
    tool
}

/// The JSON Schema of a declared output as `outputSchema` carries it (a boolean schema, which
/// no revision takes there, is left out).
fn output_schema(output: Option<&CompiledSchema>) -> Option<Map<String, Value>> {
    match output?.schema().to_json_schema() {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::{Listing, ListingCache};
    use crate::call::definition::ToolDefinition;
    use crate::call::run::ToolRun;
    use crate::errors::tool_error::ToolError;
    use crate::future::BoxFuture;
    use crate::registry::ToolRegistry;

    struct Raw(String, Value);

    impl ToolDefinition for Raw {
        fn name(&self) -> &str {
            &self.0
        }

        fn description(&self) -> &str {
            "A raw tool."
        }

        fn parameters(&self) -> &Value {
            &self.1
        }

        fn execute<'a>(
            &'a self,
            _arguments: &'a Value,
            _run: &'a ToolRun,
        ) -> BoxFuture<'a, Result<Value, ToolError>> {
            Box::pin(async { Ok(Value::Null) })
        }
    }

    /// The listing of `registry`'s global layer.
    fn listed(cache: &ListingCache, registry: &ToolRegistry) -> Arc<Listing> {
        cache.current(registry.schemas(), |name| registry.get(name))
    }

    fn registry_of(count: usize) -> ToolRegistry {
        let registry = ToolRegistry::new();
        for index in 0..count {
            let parameters = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
            let _ = registry
                .register(Raw(format!("tool_{index:04}"), parameters))
                .expect("registers");
        }
        registry
    }

    #[test]
    fn a_large_registry_is_converted_once_per_change() {
        let registry = registry_of(1_000);
        let cache = ListingCache::default();
        let first = listed(&cache, &registry);
        assert_eq!(first.tools().len(), 1_000);
        assert!(Arc::ptr_eq(&first, &listed(&cache, &registry)));
        let _more = registry.register(Raw("zz".to_owned(), json!({"type": "object"})));
        let changed = listed(&cache, &registry);
        assert!(!Arc::ptr_eq(&first, &changed));
        assert_eq!(changed.tools().len(), 1_001);
    }

    #[test]
    fn pages_continue_after_the_cursor_even_when_tools_come_and_go() {
        let registry = registry_of(5);
        let cache = ListingCache::default();
        let page = listed(&cache, &registry).page(None, 2);
        let names: Vec<&str> = page.tools.iter().map(|tool| &*tool.name).collect();
        assert_eq!(names, ["tool_0000", "tool_0001"]);
        let cursor = page.next_cursor.expect("more follow");
        assert_eq!(cursor, "tool_0001");
        // A tool registered before the cursor does not shift the next page.
        let _early = registry.register(Raw("tool_0000a".to_owned(), json!({"type": "object"})));
        let page = listed(&cache, &registry).page(Some(&cursor), 2);
        let names: Vec<&str> = page.tools.iter().map(|tool| &*tool.name).collect();
        assert_eq!(names, ["tool_0002", "tool_0003"]);
        let last = listed(&cache, &registry).page(Some("tool_0003"), 2);
        assert_eq!(last.tools.len(), 1);
        assert!(last.next_cursor.is_none());
        assert!(
            listed(&cache, &registry)
                .page(Some("zzz"), 2)
                .tools
                .is_empty()
        );
    }
}
