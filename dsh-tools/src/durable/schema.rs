//! The tables the SQL backends create and migrate, in SQL both SQLite and PostgreSQL take: one
//! list of migrations, applied in order, each once, its number kept in `dsh_tools_schema`.
//! A new migration is a new line at the end; a shipped one never changes.

/// The table that remembers which migrations ran.
pub(crate) const VERSION_TABLE: &str =
    "CREATE TABLE IF NOT EXISTS dsh_tools_schema (version BIGINT NOT NULL)";

/// The migrations, in order: migration `n` is `MIGRATIONS[n - 1]`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: the journal (state and attempt beside the record, for compare and set; the digest and
    // finish time for read-only answers) and the approvals.
    "CREATE TABLE dsh_tools_journal (
        key TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        attempt BIGINT NOT NULL,
        digest TEXT,
        finished_at BIGINT,
        record TEXT NOT NULL
    );
    CREATE INDEX dsh_tools_journal_state ON dsh_tools_journal (state);
    CREATE INDEX dsh_tools_journal_answer ON dsh_tools_journal (digest, finished_at);
    CREATE TABLE dsh_tools_approvals (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX dsh_tools_approvals_state ON dsh_tools_approvals (state)",
    // 2: served MCP tasks (state and revision beside the record, for listings and compare and
    // set).
    "CREATE TABLE dsh_tools_tasks (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        revision BIGINT NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX dsh_tools_tasks_state ON dsh_tools_tasks (state)",
];

/// The record of a journal entry, approval or task as stored (JSON text).
pub(crate) fn encode<T: serde::Serialize>(
    record: &T,
) -> Result<String, crate::durable::StoreError> {
    serde_json::to_string(record).map_err(|error| {
        crate::durable::StoreError::new(format!("cannot encode a record: {error}"))
    })
}

/// A stored record read back.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<T, crate::durable::StoreError> {
    serde_json::from_str(text).map_err(|error| {
        crate::durable::StoreError::new(format!("a stored record does not read back: {error}"))
    })
}
