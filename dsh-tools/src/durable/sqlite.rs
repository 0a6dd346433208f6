//! [`SqliteStore`]: the call store in a SQLite file (feature `store-sqlite`), for one machine:
//! what it records survives a restart of the process, and several processes on the machine may
//! share the file. Writes reach the disk before they return (WAL, `synchronous = FULL`), so an
//! intent recorded before a body runs is there after a crash in the middle of it.
//!
//! SQLite's calls block, so each runs on tokio's blocking pool under the store's one connection.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use crate::durable::record::{
    ApprovalRecord, ApprovalState, JournalEntry, JournalState, TaskRecord, TaskState,
};
use crate::durable::schema::{MIGRATIONS, VERSION_TABLE, decode, encode};
use crate::durable::store::{CallStore, StoreError};
use crate::future::BoxFuture;

/// How long a statement waits for another process's write to finish.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The call store in a SQLite file (see the module docs).
#[derive(Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

fn sql_error(error: rusqlite::Error) -> StoreError {
    StoreError::new(format!("SQLite: {error}"))
}

impl SqliteStore {
    /// Opens (creating it if needed) the store in the file at `path`, and creates or migrates
    /// its tables.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let mut connection = Connection::open(path).map_err(|error| {
            StoreError::new(format!("SQLite: cannot open {}: {error}", path.display()))
        })?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(sql_error)?;
        connection
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
            .map_err(sql_error)?;
        migrate(&mut connection).map_err(sql_error)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Runs `work` on the connection, on the blocking pool.
    fn run<T, F>(&self, work: F) -> BoxFuture<'static, Result<T, StoreError>>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let connection = Arc::clone(&self.connection);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
                work(&mut connection)
            })
            .await
            .map_err(|error| StoreError::new(format!("SQLite: the store's task failed: {error}")))?
        })
    }
}

/// Applies the migrations the file has not had, in one immediate transaction (so two processes
/// opening a new file at once migrate it once).
fn migrate(connection: &mut Connection) -> rusqlite::Result<()> {
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    transaction.execute(VERSION_TABLE, [])?;
    let version: i64 = transaction.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM dsh_tools_schema",
        [],
        |row| row.get(0),
    )?;
    for (index, migration) in MIGRATIONS.iter().enumerate() {
        let number = index as i64 + 1;
        if number > version {
            transaction.execute_batch(migration)?;
            transaction.execute(
                "INSERT INTO dsh_tools_schema (version) VALUES (?1)",
                [number],
            )?;
        }
    }
    transaction.commit()
}

fn read_entry(connection: &Connection, key: &str) -> Result<Option<JournalEntry>, StoreError> {
    let text: Option<String> = connection
        .query_row(
            "SELECT record FROM dsh_tools_journal WHERE key = ?1",
            [key],
            |row| row.get(0),
        )
        .optional()
        .map_err(sql_error)?;
    text.as_deref().map(decode).transpose()
}

fn read_approval(connection: &Connection, id: &str) -> Result<Option<ApprovalRecord>, StoreError> {
    let text: Option<String> = connection
        .query_row(
            "SELECT record FROM dsh_tools_approvals WHERE id = ?1",
            [id],
            |row| row.get(0),
        )
        .optional()
        .map_err(sql_error)?;
    text.as_deref().map(decode).transpose()
}

fn read_task(connection: &Connection, id: &str) -> Result<Option<TaskRecord>, StoreError> {
    let text: Option<String> = connection
        .query_row(
            "SELECT record FROM dsh_tools_tasks WHERE id = ?1",
            [id],
            |row| row.get(0),
        )
        .optional()
        .map_err(sql_error)?;
    text.as_deref().map(decode).transpose()
}

fn read_all<T: serde::de::DeserializeOwned>(
    connection: &Connection,
    sql: &str,
    state: Option<&str>,
) -> Result<Vec<T>, StoreError> {
    let mut statement = connection.prepare(sql).map_err(sql_error)?;
    let rows = statement
        .query_map([state], |row| row.get::<_, String>(0))
        .map_err(sql_error)?;
    let mut records = Vec::new();
    for row in rows {
        records.push(decode(&row.map_err(sql_error)?)?);
    }
    Ok(records)
}

fn as_sql(number: u64) -> i64 {
    i64::try_from(number).unwrap_or(i64::MAX)
}

impl CallStore for SqliteStore {
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let record = encode(entry);
        let entry = entry.clone();
        self.run(move |connection| {
            let inserted = connection
                .execute(
                    "INSERT INTO dsh_tools_journal (key, state, attempt, digest, finished_at, record)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (key) DO NOTHING",
                    params![
                        entry.key,
                        entry.state.as_str(),
                        as_sql(entry.attempt),
                        entry.arguments_digest,
                        entry.finished_at_ms.map(as_sql),
                        record?
                    ],
                )
                .map_err(sql_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            read_entry(connection, &entry.key)
        })
    }

    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        let record = encode(&entry);
        self.run(move |connection| {
            let replaced = connection
                .execute(
                    "UPDATE dsh_tools_journal SET state = ?1, attempt = ?2, digest = ?3,
                     finished_at = ?4, record = ?5 WHERE key = ?6 AND attempt = ?7 AND state = ?8",
                    params![
                        entry.state.as_str(),
                        as_sql(entry.attempt),
                        entry.arguments_digest,
                        entry.finished_at_ms.map(as_sql),
                        record?,
                        entry.key,
                        as_sql(attempt),
                        state.as_str()
                    ],
                )
                .map_err(sql_error)?;
            Ok(replaced == 1)
        })
    }

    fn entry<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let key = key.to_owned();
        self.run(move |connection| read_entry(connection, &key))
    }

    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        self.run(move |connection| {
            read_all(
                connection,
                "SELECT record FROM dsh_tools_journal WHERE ?1 IS NULL OR state = ?1 ORDER BY key",
                state.map(JournalState::as_str),
            )
        })
    }

    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let digest = digest.to_owned();
        self.run(move |connection| {
            let text: Option<String> = connection
                .query_row(
                    "SELECT record FROM dsh_tools_journal WHERE digest = ?1 AND state = 'completed'
                     ORDER BY finished_at DESC LIMIT 1",
                    [digest],
                    |row| row.get(0),
                )
                .optional()
                .map_err(sql_error)?;
            text.as_deref().map(decode).transpose()
        })
    }

    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        let record = encode(approval);
        let approval = approval.clone();
        self.run(move |connection| {
            let inserted = connection
                .execute(
                    "INSERT INTO dsh_tools_approvals (id, state, record) VALUES (?1, ?2, ?3)
                     ON CONFLICT (id) DO NOTHING",
                    params![approval.id, approval.state.as_str(), record?],
                )
                .map_err(sql_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            read_approval(connection, &approval.id)
        })
    }

    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let record = encode(approval);
        let approval = approval.clone();
        self.run(move |connection| {
            let replaced = connection
                .execute(
                    "UPDATE dsh_tools_approvals SET state = ?1, record = ?2 WHERE id = ?3 AND state = ?4",
                    params![approval.state.as_str(), record?, approval.id, state.as_str()],
                )
                .map_err(sql_error)?;
            Ok(replaced == 1)
        })
    }

    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        let id = id.to_owned();
        self.run(move |connection| read_approval(connection, &id))
    }

    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
        self.run(move |connection| {
            read_all(
                connection,
                "SELECT record FROM dsh_tools_approvals WHERE ?1 IS NULL OR state = ?1 ORDER BY id",
                state.map(ApprovalState::as_str),
            )
        })
    }

    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let record = encode(task);
        let task = task.clone();
        self.run(move |connection| {
            let inserted = connection
                .execute(
                    "INSERT INTO dsh_tools_tasks (id, state, revision, record) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (id) DO NOTHING",
                    params![task.id, task.state.as_str(), as_sql(task.revision), record?],
                )
                .map_err(sql_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            read_task(connection, &task.id)
        })
    }

    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let record = encode(task);
        let task = task.clone();
        self.run(move |connection| {
            let replaced = connection
                .execute(
                    "UPDATE dsh_tools_tasks SET state = ?1, revision = ?2, record = ?3
                     WHERE id = ?4 AND revision = ?5",
                    params![
                        task.state.as_str(),
                        as_sql(task.revision),
                        record?,
                        task.id,
                        as_sql(revision)
                    ],
                )
                .map_err(sql_error)?;
            Ok(replaced == 1)
        })
    }

    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let id = id.to_owned();
        self.run(move |connection| read_task(connection, &id))
    }

    fn tasks(
        &self,
        state: Option<TaskState>,
    ) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
        self.run(move |connection| {
            read_all(
                connection,
                "SELECT record FROM dsh_tools_tasks WHERE ?1 IS NULL OR state = ?1 ORDER BY id",
                state.map(TaskState::as_str),
            )
        })
    }
}
