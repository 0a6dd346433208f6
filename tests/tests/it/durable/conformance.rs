//! Every backend of the call store passes the one conformance suite
//! (`dsh_tools_tests::durable_conformance`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::durable::{CallStore, MemoryStore, PostgresStore, SqliteStore};
use dsh_tools_tests::durable_conformance::run_all;
use dsh_tools_tests::postgres_server::PostgresServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_store_conforms() {
    run_all(|| async { Arc::new(MemoryStore::default()) as Arc<dyn CallStore> }).await;
}

/// A bound the suite never reaches: its bookkeeping must not change what the store does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bounded_memory_store_conforms() {
    run_all(|| async { Arc::new(MemoryStore::keeping_finished(100_000)) as Arc<dyn CallStore> })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_conforms() {
    let dir = std::env::temp_dir().join(format!("dsh-tools-sqlite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let next = AtomicUsize::new(0);
    run_all(|| {
        let path = dir.join(format!("store-{}.db", next.fetch_add(1, Ordering::SeqCst)));
        let _ = std::fs::remove_file(&path);
        async move { Arc::new(SqliteStore::open(&path).expect("open")) as Arc<dyn CallStore> }
    })
    .await;
    // Opening a store again migrates nothing twice and keeps what it holds.
    let path = dir.join("store-0.db");
    let again = SqliteStore::open(&path).expect("open again");
    assert!(!again.entries(None).await.expect("list").is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_store_conforms() {
    let server = PostgresServer::start();
    let next = AtomicUsize::new(0);
    run_all(|| {
        let config = server.database(&format!("store_{}", next.fetch_add(1, Ordering::SeqCst)));
        async move {
            Arc::new(PostgresStore::connect(&config).await.expect("connect")) as Arc<dyn CallStore>
        }
    })
    .await;
    // A second replica connecting migrates nothing twice and sees the same records.
    let config = format!("{} dbname=store_0", server.config());
    let replica = PostgresStore::connect(&config)
        .await
        .expect("connect again");
    assert!(!replica.entries(None).await.expect("list").is_empty());
}
