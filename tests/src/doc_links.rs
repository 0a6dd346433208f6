//! A tool and argument types whose generated docs link to the types they reference, one of them
//! private: `cargo doc` with `-Dwarnings` (part of CI) fails on a generated link that does not
//! resolve or that warns.

use dsh_tools::{ToolArgs, tool};

/// Which entries come first.
#[derive(ToolArgs, Debug)]
#[tool_args(rename_all = "lowercase")]
enum Order {
    /// Oldest first.
    Oldest,
    /// Newest first.
    Newest,
}

/// A page of a listing: a public type with a field of a private one.
#[derive(ToolArgs)]
pub struct Listing {
    /// Which entries come first.
    order: Option<Order>,
    /// How many entries.
    #[arg(maximum = 100)]
    pub size: u32,
}

/// One entry.
#[derive(ToolArgs, serde::Serialize)]
pub struct Entry {
    /// The entry's name.
    pub name: String,
}

/// List entries.
#[tool]
pub async fn list(args: Listing) -> Vec<Entry> {
    let name = format!("{:?}", args.order.unwrap_or(Order::Oldest));
    vec![Entry { name }]
        .into_iter()
        .take(args.size as usize)
        .collect()
}

/// When something happened, with a schemars-typed moment.
#[derive(ToolArgs)]
pub struct Window {
    /// Since when.
    #[arg(schemars)]
    pub since: chrono::DateTime<chrono::Utc>,
    /// Which item.
    #[arg(schemars)]
    pub id: Option<uuid::Uuid>,
}

/// The entries found.
#[derive(ToolArgs, serde::Serialize)]
pub struct Found {
    /// What was found.
    pub entries: Vec<Entry>,
}

/// Find entries in a window.
#[tool]
pub async fn find(window: Window, limit: Option<u32>) -> Found {
    let _ = (window.since, window.id, limit);
    Found {
        entries: Vec::new(),
    }
}
