//! [`PostgresStore`]: the call store in PostgreSQL (feature `store-postgres`), for many
//! replicas: every process connected to the same database sees the same journal, approvals and
//! served tasks.
//! The store creates and migrates its own tables when it connects (under an advisory lock, so
//! replicas starting together migrate once).

use tokio_postgres::{Client, NoTls};

use crate::durable::record::{
    ApprovalRecord, ApprovalState, JournalEntry, JournalState, TaskRecord, TaskState,
};
use crate::durable::schema::{MIGRATIONS, VERSION_TABLE, decode, encode};
use crate::durable::store::{CallStore, StoreError};
use crate::future::BoxFuture;

/// The advisory lock the migrations run under (any number, the same in every replica).
const MIGRATION_LOCK: i64 = 0x6473_685f_746f_6f6c;

/// The call store in PostgreSQL (see the module docs).
pub struct PostgresStore {
    client: Client,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

fn pg_error(error: tokio_postgres::Error) -> StoreError {
    StoreError::new(format!("PostgreSQL: {error}"))
}

fn as_sql(number: u64) -> i64 {
    i64::try_from(number).unwrap_or(i64::MAX)
}

impl PostgresStore {
    /// Connects with `config` (`host=… port=… user=… dbname=…` or a `postgresql://` URL, no
    /// TLS), and creates or migrates the store's tables. The connection runs on a task of the
    /// current tokio runtime.
    pub async fn connect(config: &str) -> Result<Self, StoreError> {
        let (mut client, connection) = tokio_postgres::connect(config, NoTls)
            .await
            .map_err(pg_error)?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::error!("PostgreSQL call store connection ended: {error}");
            }
        });
        let transaction = client.transaction().await.map_err(pg_error)?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(pg_error)?;
        transaction
            .batch_execute(VERSION_TABLE)
            .await
            .map_err(pg_error)?;
        let version: i64 = transaction
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM dsh_tools_schema",
                &[],
            )
            .await
            .map_err(pg_error)?
            .get(0);
        for (index, migration) in MIGRATIONS.iter().enumerate() {
            let number = index as i64 + 1;
            if number > version {
                transaction
                    .batch_execute(migration)
                    .await
                    .map_err(pg_error)?;
                transaction
                    .execute(
                        "INSERT INTO dsh_tools_schema (version) VALUES ($1)",
                        &[&number],
                    )
                    .await
                    .map_err(pg_error)?;
            }
        }
        transaction.commit().await.map_err(pg_error)?;
        Ok(Self { client })
    }

    async fn one<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        let row = self
            .client
            .query_opt(sql, &[&key])
            .await
            .map_err(pg_error)?;
        row.map(|row| decode(row.get::<_, &str>(0))).transpose()
    }

    async fn all<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        state: Option<&str>,
    ) -> Result<Vec<T>, StoreError> {
        let rows = self.client.query(sql, &[&state]).await.map_err(pg_error)?;
        rows.iter()
            .map(|row| decode(row.get::<_, &str>(0)))
            .collect()
    }
}

impl CallStore for PostgresStore {
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        Box::pin(async move {
            let record = encode(entry)?;
            let inserted = self
                .client
                .execute(
                    "INSERT INTO dsh_tools_journal (key, state, attempt, digest, finished_at, record)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING",
                    &[
                        &entry.key,
                        &entry.state.as_str(),
                        &as_sql(entry.attempt),
                        &entry.arguments_digest,
                        &entry.finished_at_ms.map(as_sql),
                        &record,
                    ],
                )
                .await
                .map_err(pg_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            self.entry(&entry.key).await
        })
    }

    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let record = encode(&entry)?;
            let replaced = self
                .client
                .execute(
                    "UPDATE dsh_tools_journal SET state = $1, attempt = $2, digest = $3,
                     finished_at = $4, record = $5 WHERE key = $6 AND attempt = $7 AND state = $8",
                    &[
                        &entry.state.as_str(),
                        &as_sql(entry.attempt),
                        &entry.arguments_digest,
                        &entry.finished_at_ms.map(as_sql),
                        &record,
                        &entry.key,
                        &as_sql(attempt),
                        &state.as_str(),
                    ],
                )
                .await
                .map_err(pg_error)?;
            Ok(replaced == 1)
        })
    }

    fn entry<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        Box::pin(self.one("SELECT record FROM dsh_tools_journal WHERE key = $1", key))
    }

    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        Box::pin(self.all(
            "SELECT record FROM dsh_tools_journal WHERE $1::TEXT IS NULL OR state = $1::TEXT
             ORDER BY key COLLATE \"C\"",
            state.map(JournalState::as_str),
        ))
    }

    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        Box::pin(self.one(
            "SELECT record FROM dsh_tools_journal WHERE digest = $1 AND state = 'completed'
             ORDER BY finished_at DESC LIMIT 1",
            digest,
        ))
    }

    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        Box::pin(async move {
            let record = encode(approval)?;
            let inserted = self
                .client
                .execute(
                    "INSERT INTO dsh_tools_approvals (id, state, record) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO NOTHING",
                    &[&approval.id, &approval.state.as_str(), &record],
                )
                .await
                .map_err(pg_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            self.approval(&approval.id).await
        })
    }

    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let record = encode(approval)?;
            let replaced = self
                .client
                .execute(
                    "UPDATE dsh_tools_approvals SET state = $1, record = $2 WHERE id = $3 AND state = $4",
                    &[&approval.state.as_str(), &record, &approval.id, &state.as_str()],
                )
                .await
                .map_err(pg_error)?;
            Ok(replaced == 1)
        })
    }

    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        Box::pin(self.one("SELECT record FROM dsh_tools_approvals WHERE id = $1", id))
    }

    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
        Box::pin(self.all(
            "SELECT record FROM dsh_tools_approvals WHERE $1::TEXT IS NULL OR state = $1::TEXT
             ORDER BY id COLLATE \"C\"",
            state.map(ApprovalState::as_str),
        ))
    }

    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let record = encode(task)?;
            let inserted = self
                .client
                .execute(
                    "INSERT INTO dsh_tools_tasks (id, state, revision, record) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (id) DO NOTHING",
                    &[&task.id, &task.state.as_str(), &as_sql(task.revision), &record],
                )
                .await
                .map_err(pg_error)?;
            if inserted == 1 {
                return Ok(None);
            }
            self.task(&task.id).await
        })
    }

    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let record = encode(task)?;
            let replaced = self
                .client
                .execute(
                    "UPDATE dsh_tools_tasks SET state = $1, revision = $2, record = $3
                     WHERE id = $4 AND revision = $5",
                    &[
                        &task.state.as_str(),
                        &as_sql(task.revision),
                        &record,
                        &task.id,
                        &as_sql(revision),
                    ],
                )
                .await
                .map_err(pg_error)?;
            Ok(replaced == 1)
        })
    }

    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(self.one("SELECT record FROM dsh_tools_tasks WHERE id = $1", id))
    }

    fn tasks(
        &self,
        state: Option<TaskState>,
    ) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
        Box::pin(self.all(
            "SELECT record FROM dsh_tools_tasks WHERE $1::TEXT IS NULL OR state = $1::TEXT
             ORDER BY id COLLATE \"C\"",
            state.map(TaskState::as_str),
        ))
    }
}
