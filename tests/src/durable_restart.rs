//! What the restart tests share with their child process (`src/bin/durable_child.rs`): the call
//! store a process opens from one command-line word, and a registry whose two tools count their
//! body's runs in a file (`charge`, neither idempotent nor read-only; `refresh`, idempotent), so
//! a process killed in the middle of a body leaves a count the next process can read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dsh_tools::durable::{CallStore, Durability, PostgresStore, SqliteStore};
use dsh_tools::{FnTool, ToolRegistry, call::ToolAnnotations, json};

/// What the child prints once its body has started and counted its run.
pub const BODY_STARTED: &str = "BODY_STARTED";

/// Which store a process opens: `sqlite:<path>` or `postgres:<connection string>`.
#[derive(Clone, Debug)]
pub enum Backend {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(String),
}

impl Backend {
    /// The word a child is given.
    pub fn arg(&self) -> String {
        match self {
            Self::Sqlite(path) => format!("sqlite:{}", path.display()),
            Self::Postgres(config) => format!("postgres:{config}"),
        }
    }

    /// The backend `word` names.
    pub fn parse(word: &str) -> Self {
        if let Some(path) = word.strip_prefix("sqlite:") {
            Self::Sqlite(PathBuf::from(path))
        } else if let Some(config) = word.strip_prefix("postgres:") {
            Self::Postgres(config.to_owned())
        } else {
            panic!("a backend is sqlite:<path> or postgres:<config>, not {word:?}")
        }
    }

    /// Opens the store.
    pub async fn open(&self) -> Arc<dyn CallStore> {
        match self {
            Self::Sqlite(path) => Arc::new(SqliteStore::open(path).expect("the SQLite store")),
            Self::Postgres(config) => Arc::new(
                PostgresStore::connect(config)
                    .await
                    .expect("the PostgreSQL store"),
            ),
        }
    }
}

/// How many runs of `tool` the file `counter` has recorded.
pub fn runs(counter: &Path, tool: &str) -> usize {
    std::fs::read_to_string(counter)
        .unwrap_or_default()
        .lines()
        .filter(|line| *line == tool)
        .count()
}

/// Appends a run of `tool` to `counter`, on disk before it returns.
fn count_run(counter: &Path, tool: &str) {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(counter)
        .expect("the counter file");
    writeln!(file, "{tool}").expect("count a run");
    file.sync_all().expect("sync the counter");
}

/// A registry on `store` (as `place`) with `charge` and `refresh`, whose bodies count their run
/// in `counter`; with `hang`, a body then prints [`BODY_STARTED`] and never finishes.
pub fn registry(
    store: Arc<dyn CallStore>,
    place: &str,
    counter: PathBuf,
    hang: bool,
) -> ToolRegistry {
    let registry = ToolRegistry::new();
    for (name, idempotent) in [("charge", false), ("refresh", true)] {
        let counter = counter.clone();
        let annotations = ToolAnnotations {
            idempotent: Some(idempotent),
            ..ToolAnnotations::default()
        };
        let tool = FnTool::builder(name, "Counts its runs.")
            .options(dsh_tools::call::ToolOptions {
                annotations,
                ..dsh_tools::call::ToolOptions::default()
            })
            .raw_parameters(json!({"type": "object"}))
            .handler(move |args, _| {
                let counter = counter.clone();
                async move {
                    count_run(&counter, name);
                    if hang {
                        println!("{BODY_STARTED}");
                        std::future::pending::<()>().await;
                    }
                    Ok(json!({"tool": name, "args": args, "runs": runs(&counter, name)}))
                }
            });
        let _ = registry.register(tool).expect("register");
    }
    registry.set_durability(Durability::new(store).with_place(place));
    registry
}
