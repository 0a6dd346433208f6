//! The durability contract as a user reads it (DESIGN's "Durability", `docs/durable.md`, the
//! error texts of `docs/errors.md`), checked through the public API only, on the in-memory store
//! and on a SQLite file. "Another process" is another registry on the same store: the same
//! `MemoryStore` shared, or the SQLite file opened again. Each scenario counts its tools' bodies,
//! so a replay that ran the body, or a decision used twice, shows as a count.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::call::{CancellationToken, ToolAnnotations, ToolOptions};
use dsh_tools::code_mode::CodeMode;
use dsh_tools::durable::{
    ApprovalKey, ApprovalState, CallDecision, CallStore, Durability, JournalPolicy, MemoryStore,
    RecordedOutcome, SqliteStore, arguments_digest, idempotency_key,
};
use dsh_tools::errors::ErrorCode;
use dsh_tools::hooks::{ApprovalOutcome, CallObserver, ObservedCall, approver_fn};
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, json, tool,
};

/// The secret every "process" of a scenario shares.
const SECRET: &[u8] = b"the contract's key, 32 bytes!!!!";

/// Where a scenario's calls are kept.
#[derive(Clone, Copy, Debug)]
enum Backend {
    Memory,
    Sqlite,
}

/// One store shared by the registries of a scenario.
struct Shared {
    backend: Backend,
    memory: Arc<MemoryStore>,
    dir: Option<PathBuf>,
}

impl Shared {
    fn new(backend: Backend, name: &str) -> Self {
        let dir = matches!(backend, Backend::Sqlite).then(|| {
            let dir = std::env::temp_dir()
                .join(format!("dsh-tools-contract-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("a temporary directory");
            dir
        });
        Self {
            backend,
            memory: Arc::new(MemoryStore::default()),
            dir,
        }
    }

    /// The store as a process opening it would have it (for SQLite, the file opened again).
    fn store(&self) -> Arc<dyn CallStore> {
        match (self.backend, &self.dir) {
            (Backend::Sqlite, Some(dir)) => {
                Arc::new(SqliteStore::open(dir.join("calls.db")).expect("open the SQLite file"))
            }
            _ => Arc::clone(&self.memory) as Arc<dyn CallStore>,
        }
    }

    /// A process's durability on the store, approvals signed under `secret`, expiring after
    /// `expiry`. The memory store is handed over as itself, as a user would.
    fn durability(&self, place: &str, secret: &[u8], expiry: Duration) -> Durability {
        let durability = match self.backend {
            Backend::Memory => Durability::new(Arc::clone(&self.memory)),
            Backend::Sqlite => Durability::new(self.store()),
        };
        durability
            .with_place(place)
            .with_approvals(ApprovalKey::new(secret.to_vec(), expiry))
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// How often each tool's body ran, across every registry of a scenario.
#[derive(Clone, Default)]
struct Runs(Arc<Mutex<std::collections::BTreeMap<&'static str, usize>>>);

impl Runs {
    fn bump(&self, tool: &'static str) -> usize {
        let mut runs = self.0.lock().expect("runs");
        let count = runs.entry(tool).or_default();
        *count += 1;
        *count
    }

    fn of(&self, tool: &str) -> usize {
        self.0.lock().expect("runs").get(tool).copied().unwrap_or(0)
    }
}

/// How a tool's first run ends.
#[derive(Clone, Copy)]
enum First {
    /// It answers.
    Answers,
    /// It never answers (its 40 ms timeout fires).
    Hangs,
    /// It panics.
    Panics,
    /// It waits until it is cancelled (its timeout is 10 s).
    Waits,
}

fn counted(
    name: &'static str,
    runs: &Runs,
    first: First,
    annotations: ToolAnnotations,
    journal: JournalPolicy,
) -> FnTool {
    let runs = runs.clone();
    FnTool::builder(name, "Counts its runs.")
        .raw_parameters(json!({"type": "object"}))
        .concurrency_classifier(|_| true)
        .options(ToolOptions {
            timeout_ms: Some(if matches!(first, First::Hangs) {
                40
            } else {
                10_000
            }),
            annotations,
            journal,
            ..ToolOptions::default()
        })
        .handler(move |arguments, _run| {
            let runs = runs.clone();
            async move {
                let run = runs.bump(name);
                if run == 1 {
                    match first {
                        First::Answers => {}
                        First::Hangs | First::Waits => std::future::pending::<()>().await,
                        First::Panics => panic!("the card reader broke"),
                    }
                }
                Ok(json!({"tool": name, "args": arguments, "run": run}))
            }
        })
}

fn idempotent() -> ToolAnnotations {
    ToolAnnotations {
        idempotent: Some(true),
        ..ToolAnnotations::default()
    }
}

fn read_only() -> ToolAnnotations {
    ToolAnnotations {
        read_only: Some(true),
        ..ToolAnnotations::default()
    }
}

fn journal(enabled: bool, answer_within_ms: Option<u64>) -> JournalPolicy {
    JournalPolicy {
        enabled,
        answer_within_ms,
    }
}

/// A process: a registry on `shared` named `place`, with
/// - `charge` (plain), `pay` (plain, asks for an approval), `memo` (out of the journal, asks);
/// - `ship`, `ship_idem` (idempotent), `look` (read-only): their first run hangs;
/// - `crash` (plain): its first run panics; `slow` (plain): its first run waits to be cancelled;
/// - `price` (read-only, answered from the journal within 300 ms);
/// - in Code Mode (`both`): `a`, `b`, and `flag`, out of the journal.
fn process(shared: &Shared, place: &str, runs: &Runs) -> ToolRegistry {
    process_with(shared, place, runs, SECRET, Duration::from_secs(3_600))
}

fn process_with(
    shared: &Shared,
    place: &str,
    runs: &Runs,
    secret: &[u8],
    expiry: Duration,
) -> ToolRegistry {
    let registry = ToolRegistry::new();
    registry.set_unscoped_agents_see_global(true);
    let plain = ToolAnnotations::default;
    let on = JournalPolicy::default;
    for tool in [
        counted("charge", runs, First::Answers, plain(), on()),
        counted("pay", runs, First::Answers, plain(), on()),
        counted("memo", runs, First::Answers, plain(), journal(false, None)),
        counted("ship", runs, First::Hangs, plain(), on()),
        counted("ship_idem", runs, First::Hangs, idempotent(), on()),
        counted("look", runs, First::Hangs, read_only(), on()),
        counted("crash", runs, First::Panics, plain(), on()),
        counted("slow", runs, First::Waits, plain(), on()),
        counted(
            "price",
            runs,
            First::Answers,
            read_only(),
            journal(true, Some(300)),
        ),
        counted("a", runs, First::Answers, plain(), on()),
        counted("b", runs, First::Answers, plain(), on()),
        counted("flag", runs, First::Answers, plain(), journal(false, None)),
    ] {
        let _ = registry.register(tool).expect("registers");
    }
    let _ = registry.register(RestockTool).expect("restock");
    let _ = registry.register(CatalogTool).expect("catalog");
    registry.set_code_mode(CodeMode::Both).expect("code mode");
    let _ = registry
        .on_pre_execute(|execution, next| async move {
            if matches!(execution.name(), "pay" | "memo") {
                return Ok(PreToolDecision::Ask {
                    reason: Some("moving money needs a person".to_owned()),
                });
            }
            next.run().await
        })
        .expect("hook");
    registry.set_durability(shared.durability(place, secret, expiry));
    registry
}

static RESTOCK_RUNS: AtomicUsize = AtomicUsize::new(0);
static CATALOG_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Restocks an item; its first run (in this process) hangs.
#[tool(idempotent, timeout_ms = 40)]
async fn restock(item: String) -> String {
    if RESTOCK_RUNS.fetch_add(1, Ordering::SeqCst) == 0 {
        std::future::pending::<()>().await;
    }
    format!("restocked {item}")
}

/// Reads the catalog; its first run (in this process) hangs.
#[tool(read_only, timeout_ms = 40)]
async fn catalog(item: String) -> String {
    if CATALOG_RUNS.fetch_add(1, Ordering::SeqCst) == 0 {
        std::future::pending::<()>().await;
    }
    format!("{item} is listed")
}

fn call(id: &str, tool: &'static str, arguments: dsh_tools::Value) -> ToolExecutionInput {
    ToolExecutionInput::new(id.to_owned(), tool, arguments)
}

fn key_of(input: &ToolExecutionInput) -> String {
    idempotency_key(&input.call_id, &input.name, None, &input.arguments)
}

fn code(result: &ToolExecutionResult) -> Option<&str> {
    result.error_code()
}

/// Milliseconds since the Unix epoch, now.
fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis(),
    )
    .expect("fits")
}

/// The `<time>` of a `started at <time> on` text, as an RFC 3339 instant in milliseconds.
fn started_at(text: &str) -> u64 {
    let after = text
        .split_once("started at ")
        .unwrap_or_else(|| panic!("no start time in {text}"))
        .1;
    let time = after.split(' ').next().expect("a time");
    let parsed = chrono::DateTime::parse_from_rfc3339(time)
        .unwrap_or_else(|error| panic!("{time} is not RFC 3339: {error}"));
    u64::try_from(parsed.timestamp_millis()).expect("after 1970")
}

const BACKENDS: [Backend; 2] = [Backend::Memory, Backend::Sqlite];

/// What a call observer saw of the calls' results: `(tool, replayed)`.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<(String, bool)>>>);

impl CallObserver for Seen {
    fn on_result(&self, call: &ObservedCall<'_>, result: &ToolExecutionResult) {
        self.0
            .lock()
            .expect("seen")
            .push((call.execution.name().to_owned(), result.is_replayed()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_call_is_replayed_by_any_process_and_says_so() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "replay");
        let runs = Runs::default();
        let first_process = process(&shared, "replica-a", &runs);
        let input = call("c-1", "charge", json!({"cents": 500}));
        let first = first_process.execute(input.clone()).await;
        assert!(
            !first.is_error() && !first.is_replayed(),
            "{}",
            first.text()
        );

        let second_process = process(&shared, "replica-b", &runs);
        let seen = Seen::default();
        let _ = second_process.observe(seen.clone()).expect("observer");
        let observed = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&observed);
        let _ = second_process
            .on_result(move |_execution, result: &ToolExecutionResult| {
                recorded
                    .lock()
                    .expect("observed")
                    .push(result.is_replayed());
            })
            .expect("result observer");
        let again = second_process.execute(input.clone()).await;
        assert!(again.is_replayed(), "{backend:?}: {again:?}");
        assert_eq!(again.value(), first.value(), "{backend:?}");
        assert_eq!(again.text(), first.text(), "{backend:?}");
        let meta = again.meta().expect("a replayed result has meta");
        assert!(
            meta.get("io.dsh-tools/replayed").is_some(),
            "{backend:?}: {meta}"
        );
        assert_eq!(*observed.lock().expect("observed"), [true], "{backend:?}");
        assert_eq!(
            *seen.0.lock().expect("seen"),
            [("charge".to_owned(), true)],
            "{backend:?}"
        );
        assert_eq!(runs.of("charge"), 1, "{backend:?}: the body ran once");

        // The same call id with other arguments is another call.
        let other = second_process
            .execute(call("c-1", "charge", json!({"cents": 501})))
            .await;
        assert!(
            !other.is_error() && !other.is_replayed(),
            "{}",
            other.text()
        );
        assert_eq!(runs.of("charge"), 2, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_left_started_is_in_doubt_and_each_decision_is_honoured() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "doubt");
        let runs = Runs::default();
        let before = now_ms();
        let first_process = process(&shared, "replica-a", &runs);
        // Three ways to leave an attempt started: a timeout, a panic, a cancellation.
        let timed_out = call("d-1", "ship", json!({"parcel": 1}));
        let result = first_process.execute(timed_out.clone()).await;
        assert_eq!(code(&result), Some(ErrorCode::ToolTimeout.as_str()));
        let panicked = call("d-2", "crash", json!({"card": 2}));
        let result = first_process.execute(panicked.clone()).await;
        assert_eq!(code(&result), Some(ErrorCode::ToolPanicked.as_str()));
        let cancelled = call("d-3", "slow", json!({"parcel": 3}));
        let signal = CancellationToken::new();
        let cancel = signal.clone();
        let canceller = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            cancel.cancel();
        });
        let result = first_process
            .execute(cancelled.clone().with_signal(signal))
            .await;
        canceller.await.expect("cancelled");
        assert!(
            result.is_error() && !result.is_replayed(),
            "{backend:?}: {}",
            result.text()
        );
        let after = now_ms();
        assert_eq!(
            (runs.of("ship"), runs.of("crash"), runs.of("slow")),
            (1, 1, 1),
            "{backend:?}"
        );

        // Another process: each retry is in doubt, saying when and where, and runs nothing.
        let second_process = process(&shared, "replica-b", &runs);
        for input in [&timed_out, &panicked, &cancelled] {
            let retry = second_process.execute(input.clone()).await;
            let text = retry.text();
            assert_eq!(
                code(&retry),
                Some(ErrorCode::CallInDoubt.as_str()),
                "{backend:?}: {text}"
            );
            assert!(
                text.starts_with("Error: an earlier attempt of this call started at "),
                "{text}"
            );
            assert!(
                text.ends_with(" on replica-a and its outcome is unknown; it was not run again"),
                "{backend:?}: {text}"
            );
            let at = started_at(&text);
            assert!(
                (before..=after).contains(&at),
                "{backend:?}: {at} not within {before}..={after}"
            );
        }
        assert_eq!(
            (runs.of("ship"), runs.of("crash"), runs.of("slow")),
            (1, 1, 1),
            "{backend:?}"
        );
        let mut in_doubt: Vec<String> = second_process
            .calls_in_doubt()
            .await
            .expect("list")
            .into_iter()
            .map(|entry| entry.key)
            .collect();
        in_doubt.sort();
        let mut expected = vec![key_of(&timed_out), key_of(&panicked), key_of(&cancelled)];
        expected.sort();
        assert_eq!(in_doubt, expected, "{backend:?}");

        // Decisions, taken by a third process, honoured by the first.
        let third_process = process(&shared, "operator", &runs);
        assert!(
            third_process
                .decide_call(&key_of(&timed_out), CallDecision::RunAgain)
                .await
                .expect("decide")
        );
        assert!(
            third_process
                .decide_call(
                    &key_of(&panicked),
                    CallDecision::GiveUp {
                        reason: "refunded by hand".to_owned()
                    }
                )
                .await
                .expect("decide")
        );
        let by_hand = RecordedOutcome::success(json!({"shipped": "by hand"}), Vec::new());
        assert!(
            third_process
                .decide_call(&key_of(&cancelled), CallDecision::Record(by_hand))
                .await
                .expect("decide")
        );
        // A decision is taken once.
        for key in [&timed_out, &panicked, &cancelled].map(key_of) {
            assert!(
                !third_process
                    .decide_call(&key, CallDecision::RunAgain)
                    .await
                    .expect("decide"),
                "{backend:?}: a decided call takes no second decision"
            );
        }
        assert!(
            third_process
                .calls_in_doubt()
                .await
                .expect("list")
                .is_empty(),
            "{backend:?}"
        );

        for attempt in 0..2 {
            let ran = first_process.execute(timed_out.clone()).await;
            assert!(!ran.is_error(), "{backend:?}: {}", ran.text());
            assert_eq!(ran.is_replayed(), attempt == 1, "{backend:?}");
            let given_up = first_process.execute(panicked.clone()).await;
            assert_eq!(code(&given_up), Some(ErrorCode::CallInDoubt.as_str()));
            assert!(
                given_up
                    .text()
                    .ends_with("; it was given up: refunded by hand"),
                "{backend:?}: {}",
                given_up.text()
            );
            let recorded = first_process.execute(cancelled.clone()).await;
            assert!(recorded.is_replayed(), "{backend:?}: {recorded:?}");
            assert_eq!(recorded.value(), Some(&json!({"shipped": "by hand"})));
        }
        assert_eq!(
            (runs.of("ship"), runs.of("crash"), runs.of("slow")),
            (2, 1, 1),
            "{backend:?}: run again ran once; given up and recorded never"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_about_a_call_not_in_doubt_changes_nothing() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "not-in-doubt");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let done = call("n-1", "charge", json!({"cents": 5}));
        let first = registry.execute(done.clone()).await;
        assert!(!first.is_error(), "{}", first.text());
        let forged = RecordedOutcome::success(json!("overwritten"), Vec::new());
        for decision in [
            CallDecision::RunAgain,
            CallDecision::GiveUp {
                reason: "no".to_owned(),
            },
            CallDecision::Record(forged),
        ] {
            assert!(
                !registry
                    .decide_call(&key_of(&done), decision.clone())
                    .await
                    .expect("decide"),
                "{backend:?}: a completed call takes no decision"
            );
            assert!(
                !registry
                    .decide_call("no such key", decision)
                    .await
                    .expect("decide"),
                "{backend:?}: an unknown key takes no decision"
            );
        }
        let again = registry.execute(done).await;
        assert!(again.is_replayed(), "{backend:?}");
        assert_eq!(again.value(), first.value(), "{backend:?}");
        assert_eq!(runs.of("charge"), 1, "{backend:?}");
        assert!(
            !registry
                .decide_approval("appr-00000000000000000000000000000000", true, "x")
                .await
                .expect("decide"),
            "{backend:?}: an unknown approval takes no decision"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idempotent_and_read_only_tools_run_again_after_an_unknown_outcome() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "idempotent");
        let runs = Runs::default();
        let first_process = process(&shared, "replica-a", &runs);
        let second_process = process(&shared, "replica-b", &runs);
        for tool in ["ship_idem", "look"] {
            let input = call("i-1", tool, json!({"n": 1}));
            let first = first_process.execute(input.clone()).await;
            assert_eq!(code(&first), Some(ErrorCode::ToolTimeout.as_str()));
            let retry = second_process.execute(input.clone()).await;
            assert!(
                !retry.is_error() && !retry.is_replayed(),
                "{backend:?} {tool}: {}",
                retry.text()
            );
            assert_eq!(runs.of(tool), 2, "{backend:?} {tool}");
            assert!(second_process.execute(input).await.is_replayed());
            assert_eq!(runs.of(tool), 2, "{backend:?} {tool}");
        }
    }
    // The macros' `idempotent` and `read_only` (their first run in this process hangs).
    let shared = Shared::new(Backend::Sqlite, "idempotent-macros");
    let runs = Runs::default();
    let first_process = process(&shared, "replica-a", &runs);
    let second_process = process(&shared, "replica-b", &runs);
    for (tool, runs, answer) in [
        ("restock", &RESTOCK_RUNS, "restocked tea"),
        ("catalog", &CATALOG_RUNS, "tea is listed"),
    ] {
        let input = call("m-1", tool, json!({"item": "tea"}));
        let first = first_process.execute(input.clone()).await;
        assert_eq!(code(&first), Some(ErrorCode::ToolTimeout.as_str()));
        let retry = second_process.execute(input).await;
        assert_eq!(retry.text(), answer, "{tool}");
        assert_eq!(runs.load(Ordering::SeqCst), 2, "{tool}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_call_is_answered_from_the_journal_within_its_time_to_live() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "ttl");
        let runs = Runs::default();
        let first_process = process(&shared, "replica-a", &runs);
        let second_process = process(&shared, "replica-b", &runs);
        let first = first_process
            .execute(call("t-1", "price", json!({"item": "tea"})))
            .await;
        assert!(!first.is_replayed() && !first.is_error());
        let within = second_process
            .execute(call("t-2", "price", json!({"item": "tea"})))
            .await;
        assert!(within.is_replayed(), "{backend:?}: {within:?}");
        assert_eq!(within.value(), first.value());
        assert_eq!(runs.of("price"), 1, "{backend:?}");
        tokio::time::sleep(Duration::from_millis(400)).await;
        let after = second_process
            .execute(call("t-3", "price", json!({"item": "tea"})))
            .await;
        assert!(!after.is_replayed(), "{backend:?}: past its time to live");
        assert_eq!(runs.of("price"), 2, "{backend:?}");
    }
}

/// Approves the pending approval `id` through `registry`, as alice, which must decide it.
async fn approve(registry: &ToolRegistry, id: &str) {
    assert!(
        registry
            .decide_approval(id, true, "alice")
            .await
            .expect("decide"),
        "{id} is decided"
    );
}

/// The pending approval's id in a waiting text.
fn approval_id(text: &str) -> String {
    let rest = text
        .strip_prefix("Error: waiting for approval ")
        .unwrap_or_else(|| panic!("not a waiting text: {text}"));
    rest.split(' ').next().expect("an id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_waits_and_is_used_once_for_the_same_arguments() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "approval");
        let runs = Runs::default();
        let asker = process(&shared, "replica-a", &runs);
        let input = call("p-1", "pay", json!({"cents": 500})).with_agent("buyer");
        let waiting = asker.execute(input.clone()).await;
        assert_eq!(
            code(&waiting),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: {}",
            waiting.text()
        );
        let id = approval_id(&waiting.text());
        assert!(id.starts_with("appr-"), "{id}");
        assert!(
            waiting.text().starts_with(&format!(
                "Error: waiting for approval {id} of tool \"pay\" (expires at "
            )),
            "{}",
            waiting.text()
        );
        // Asked again before anyone decides: the same approval, still waiting.
        let still = asker.execute(input.clone()).await;
        assert_eq!(code(&still), Some(ErrorCode::ApprovalPending.as_str()));
        assert_eq!(approval_id(&still.text()), id, "{backend:?}: a stable id");
        assert_eq!(runs.of("pay"), 0);

        // Another process lists it, with what a person needs to decide.
        let operator = process(&shared, "operator", &runs);
        let pending = operator.pending_approvals().await.expect("list");
        assert_eq!(pending.len(), 1, "{backend:?}: {pending:?}");
        let record = &pending[0];
        assert_eq!(record.id, id);
        assert_eq!(record.tool, "pay");
        assert_eq!(record.agent.as_deref(), Some("buyer"));
        assert_eq!(
            record.arguments_digest,
            arguments_digest(&json!({"cents": 500}))
        );
        assert_eq!(
            record.reason.as_deref(),
            Some("moving money needs a person")
        );
        assert!(record.expires_at_ms > now_ms(), "{record:?}");

        // Other arguments under the same call id: a call of their own, never this approval.
        let other = call("p-1", "pay", json!({"cents": 50_000})).with_agent("buyer");
        let other_waiting = asker.execute(other.clone()).await;
        assert_eq!(
            code(&other_waiting),
            Some(ErrorCode::ApprovalPending.as_str())
        );
        let other_id = approval_id(&other_waiting.text());
        assert_ne!(other_id, id);

        approve(&operator, &id).await;
        assert!(
            !operator
                .decide_approval(&id, false, "bob")
                .await
                .expect("decide"),
            "{backend:?}: a decision is taken once"
        );
        let unrelated = asker.execute(other).await;
        assert_eq!(
            code(&unrelated),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: other arguments never use the approval: {}",
            unrelated.text()
        );
        // Another call id with the same arguments is another call, asked afresh.
        let another_call = call("p-2", "pay", json!({"cents": 500})).with_agent("buyer");
        let another = asker.execute(another_call).await;
        assert_eq!(code(&another), Some(ErrorCode::ApprovalPending.as_str()));
        assert_eq!(runs.of("pay"), 0, "{backend:?}");

        // A third process retries: the decision is used, once.
        let retrier = process(&shared, "replica-c", &runs);
        let paid = retrier.execute(input.clone()).await;
        assert!(
            !paid.is_error() && !paid.is_replayed(),
            "{backend:?}: {}",
            paid.text()
        );
        assert_eq!(runs.of("pay"), 1);
        for registry in [&asker, &retrier, &operator] {
            let again = registry.execute(input.clone()).await;
            assert!(again.is_replayed(), "{backend:?}: {}", again.text());
        }
        assert_eq!(runs.of("pay"), 1, "{backend:?}: used once");
        let ids: Vec<String> = operator
            .pending_approvals()
            .await
            .expect("list")
            .into_iter()
            .map(|record| record.id)
            .collect();
        assert!(!ids.contains(&id), "{backend:?}: {ids:?}");
        assert!(ids.contains(&other_id), "{backend:?}: {ids:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_approval_denies_every_retry_naming_who_decided() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "rejected");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let input = call("r-1", "pay", json!({"cents": 7}));
        let id = approval_id(&registry.execute(input.clone()).await.text());
        assert!(
            registry
                .decide_approval(&id, false, "carol")
                .await
                .expect("decide")
        );
        for _ in 0..2 {
            let denied = registry.execute(input.clone()).await;
            assert_eq!(
                code(&denied),
                Some(ErrorCode::Denied.as_str()),
                "{backend:?}"
            );
            assert_eq!(
                denied.text(),
                format!("Error: approval {id} was rejected by carol"),
                "{backend:?}"
            );
        }
        assert_eq!(runs.of("pay"), 0);
        assert!(registry.pending_approvals().await.expect("list").is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_approval_never_approves_and_says_so() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "expired");
        let runs = Runs::default();
        let registry = process_with(
            &shared,
            "replica-a",
            &runs,
            SECRET,
            Duration::from_millis(150),
        );
        // Left undecided past its expiry: it can no longer be decided, the retry is denied.
        let late = call("e-1", "pay", json!({"cents": 1}));
        let id = approval_id(&registry.execute(late.clone()).await.text());
        // Approved in time, retried too late.
        let slow = call("e-2", "pay", json!({"cents": 2}));
        let slow_id = approval_id(&registry.execute(slow.clone()).await.text());
        assert!(
            registry
                .decide_approval(&slow_id, true, "alice")
                .await
                .expect("decide")
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            !registry
                .decide_approval(&id, true, "alice")
                .await
                .expect("decide"),
            "{backend:?}: an expired approval takes no decision"
        );
        for (input, id) in [(&late, &id), (&slow, &slow_id)] {
            for _ in 0..2 {
                let denied = registry.execute(input.clone()).await;
                assert_eq!(
                    code(&denied),
                    Some(ErrorCode::Denied.as_str()),
                    "{backend:?}: {}",
                    denied.text()
                );
                assert!(
                    denied
                        .text()
                        .starts_with(&format!("Error: approval {id} expired at ")),
                    "{backend:?}: {}",
                    denied.text()
                );
            }
        }
        assert_eq!(runs.of("pay"), 0, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_altered_or_forged_in_the_store_never_approves() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "forged");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let store = shared.store();

        // Approved in the store by someone without the key.
        let forged_call = call("f-1", "pay", json!({"cents": 900}));
        let id = approval_id(&registry.execute(forged_call.clone()).await.text());
        let mut record = store.approval(&id).await.expect("read").expect("kept");
        record.state = ApprovalState::Approved;
        record.decided_by = Some("mallory".to_owned());
        record.decision_signature = Some("00".repeat(32));
        assert!(
            store
                .replace_approval(ApprovalState::Pending, &record)
                .await
                .expect("replace")
        );
        let refused = registry.execute(forged_call.clone()).await;
        assert_eq!(
            code(&refused),
            Some(ErrorCode::Denied.as_str()),
            "{backend:?}: {}",
            refused.text()
        );

        // A real decision's signature copied onto another approval.
        let genuine_call = call("f-2", "pay", json!({"cents": 1}));
        let genuine_id = approval_id(&registry.execute(genuine_call).await.text());
        assert!(
            registry
                .decide_approval(&genuine_id, true, "alice")
                .await
                .expect("decide")
        );
        let genuine = store
            .approval(&genuine_id)
            .await
            .expect("read")
            .expect("kept");
        let copied_call = call("f-3", "pay", json!({"cents": 2}));
        let copied_id = approval_id(&registry.execute(copied_call.clone()).await.text());
        let mut copied = store
            .approval(&copied_id)
            .await
            .expect("read")
            .expect("kept");
        copied.state = ApprovalState::Approved;
        copied.decided_by = genuine.decided_by.clone();
        copied.decision_signature = genuine.decision_signature.clone();
        assert!(
            store
                .replace_approval(ApprovalState::Pending, &copied)
                .await
                .expect("replace")
        );
        let refused = registry.execute(copied_call).await;
        assert_eq!(
            code(&refused),
            Some(ErrorCode::Denied.as_str()),
            "{backend:?}"
        );

        // An expired approval whose expiry was pushed back in the store cannot be decided.
        let pushed_call = call("f-4", "pay", json!({"cents": 4}));
        let pushed_id = approval_id(&registry.execute(pushed_call.clone()).await.text());
        let mut pushed = store
            .approval(&pushed_id)
            .await
            .expect("read")
            .expect("kept");
        pushed.expires_at_ms += 86_400_000;
        assert!(
            store
                .replace_approval(ApprovalState::Pending, &pushed)
                .await
                .expect("replace")
        );
        assert!(
            !registry
                .decide_approval(&pushed_id, true, "alice")
                .await
                .expect("decide"),
            "{backend:?}: an altered expiry takes no decision"
        );
        let refused = registry.execute(pushed_call).await;
        assert_ne!(code(&refused), None, "{backend:?}: {}", refused.text());
        assert!(refused.is_error());

        // A process with another key can neither decide nor use the approvals of this one.
        let stranger = process_with(
            &shared,
            "elsewhere",
            &runs,
            b"another key, also thirty-two b!!",
            Duration::from_secs(3_600),
        );
        let asked = call("f-5", "pay", json!({"cents": 5}));
        let asked_id = approval_id(&registry.execute(asked.clone()).await.text());
        assert!(
            !stranger
                .decide_approval(&asked_id, true, "eve")
                .await
                .expect("decide"),
            "{backend:?}: a record signed under another key takes no decision"
        );
        let still = registry.execute(asked).await;
        assert_eq!(code(&still), Some(ErrorCode::ApprovalPending.as_str()));
        assert_eq!(runs.of("pay"), 0, "{backend:?}: nothing forged ever ran");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_for_a_tool_out_of_the_journal_is_used_once() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "unjournaled");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let input = call("u-1", "memo", json!({"text": "hi"}));
        let id = approval_id(&registry.execute(input.clone()).await.text());
        approve(&registry, &id).await;
        let sent = registry.execute(input.clone()).await;
        assert!(!sent.is_error(), "{backend:?}: {}", sent.text());
        let again = registry.execute(input).await;
        assert_eq!(
            code(&again),
            Some(ErrorCode::Denied.as_str()),
            "{backend:?}"
        );
        assert_eq!(
            again.text(),
            format!("Error: approval {id} was already used by an earlier attempt of this call")
        );
        assert_eq!(runs.of("memo"), 1, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approver_that_is_unavailable_leaves_the_approval_waiting() {
    let shared = Shared::new(Backend::Memory, "unavailable");
    let runs = Runs::default();
    let registry = process(&shared, "replica-a", &runs);
    let _approver = registry.set_approver(approver_fn(|_request| async {
        Ok(ApprovalOutcome::Unavailable)
    }));
    let waiting = registry
        .execute(call("v-1", "pay", json!({"cents": 3})))
        .await;
    assert_eq!(code(&waiting), Some(ErrorCode::ApprovalPending.as_str()));
    assert_eq!(registry.pending_approvals().await.expect("list").len(), 1);
    assert_eq!(runs.of("pay"), 0);
}

fn run_code(call_id: &str, program: &str) -> ToolExecutionInput {
    ToolExecutionInput::new(call_id.to_owned(), RUN_CODE, json!({ "code": program }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_pauses_at_an_approval_and_resumes_without_running_a_body_twice() {
    const PROGRAM: &str = "const a = await tools.a({x: 1});\n\
        const paid = await tools.pay({cents: 500});\n\
        const b = await tools.b({after: paid.run});\n\
        return [a.run, paid.run, b.run];";
    for backend in BACKENDS {
        let shared = Shared::new(backend, "program");
        let runs = Runs::default();
        let first_process = process(&shared, "replica-a", &runs);
        let input = run_code("run-1", PROGRAM);
        let paused = first_process.execute(input.clone()).await;
        let text = paused.text();
        assert_eq!(
            code(&paused),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: {text}"
        );
        let id = approval_id(&text);
        let run_key = key_of(&input);
        assert!(
            text.contains(&format!("the program run {run_key} paused at call 2")),
            "{backend:?}: {text}"
        );
        assert_eq!((runs.of("a"), runs.of("pay"), runs.of("b")), (1, 0, 0));

        let operator = process(&shared, "operator", &runs);
        approve(&operator, &id).await;
        let second_process = process(&shared, "replica-b", &runs);
        let done = second_process.execute(input.clone()).await;
        assert!(!done.is_error(), "{backend:?}: {}", done.text());
        assert_eq!(
            done.value().map(|value| &value["result"]),
            Some(&json!([1, 1, 1])),
            "{backend:?}: a replayed, pay and b ran once: {}",
            done.text()
        );
        assert_eq!((runs.of("a"), runs.of("pay"), runs.of("b")), (1, 1, 1));
        let replayed = first_process.execute(input).await;
        assert!(replayed.is_replayed(), "{backend:?}: {}", replayed.text());
        assert_eq!(replayed.value(), done.value());
        assert_eq!((runs.of("a"), runs.of("pay"), runs.of("b")), (1, 1, 1));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_takes_another_path_on_resume_diverges_and_runs_nothing_more() {
    // `flag` is out of the journal: its answer changes between attempts.
    const PROGRAM: &str = "const f = await tools.flag({});\n\
        if (f.run === 1) { await tools.a({x: 1}); } else { await tools.b({x: 1}); }\n\
        await tools.pay({cents: 5});\n\
        await tools.b({last: true});\n\
        return 'done';";
    for backend in BACKENDS {
        let shared = Shared::new(backend, "diverged");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let input = run_code("run-2", PROGRAM);
        let paused = registry.execute(input.clone()).await;
        assert_eq!(code(&paused), Some(ErrorCode::ApprovalPending.as_str()));
        let id = approval_id(&paused.text());
        approve(&registry, &id).await;
        let other = process(&shared, "replica-b", &runs);
        let diverged = other.execute(input.clone()).await;
        let text = diverged.text();
        assert_eq!(
            code(&diverged),
            Some(ErrorCode::CodeRunDiverged.as_str()),
            "{backend:?}: {text}"
        );
        assert!(
            text.starts_with(
                "Error: the program took another path on resume at call 2: \
                 an earlier attempt recorded tools.a there, and now it calls tools.b("
            ),
            "{backend:?}: {text}"
        );
        assert_eq!(
            (runs.of("a"), runs.of("b"), runs.of("pay")),
            (1, 0, 0),
            "{backend:?}: nothing ran after the divergence"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_recorded_by_hand_is_replayed_not_run_again() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "failure-by-hand");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let input = call("h-1", "ship", json!({"parcel": 9}));
        let first = registry.execute(input.clone()).await;
        assert_eq!(code(&first), Some(ErrorCode::ToolTimeout.as_str()));
        // The carrier says the parcel never left: record that the call failed.
        let lost = dsh_tools::ToolError::new("the carrier lost the parcel");
        assert!(
            registry
                .decide_call(
                    &key_of(&input),
                    CallDecision::Record(RecordedOutcome::failure(&lost))
                )
                .await
                .expect("decide")
        );
        for _ in 0..2 {
            let retry = registry.execute(input.clone()).await;
            assert!(retry.is_error(), "{backend:?}: {}", retry.text());
            assert!(retry.is_replayed(), "{backend:?}: {retry:?}");
            assert_eq!(
                retry.text(),
                "Error: the carrier lost the parcel",
                "{backend:?}"
            );
        }
        assert_eq!(
            runs.of("ship"),
            1,
            "{backend:?}: a recorded outcome never runs"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_call_whose_body_failed_asks_again_before_it_runs_again() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "approved-failed");
        let runs = Runs::default();
        let registry = ToolRegistry::new();
        let counted_runs = runs.clone();
        let refund = FnTool::builder("refund", "Fails its first run.")
            .raw_parameters(json!({"type": "object"}))
            .handler(move |_, _| {
                let runs = counted_runs.clone();
                async move {
                    if runs.bump("refund") == 1 {
                        Err(dsh_tools::ToolError::new("the bank is closed"))
                    } else {
                        Ok(json!("refunded"))
                    }
                }
            });
        let _ = registry.register(refund).expect("refund");
        let _ = registry
            .on_pre_execute(|_, _| async {
                Ok(PreToolDecision::Ask {
                    reason: Some("refunds need a person".to_owned()),
                })
            })
            .expect("hook");
        registry.set_durability(shared.durability("replica-a", SECRET, Duration::from_secs(3_600)));
        let input = call("af-1", "refund", json!({"cents": 10}));
        let id = approval_id(&registry.execute(input.clone()).await.text());
        approve(&registry, &id).await;
        let failed = registry.execute(input.clone()).await;
        assert_eq!(failed.text(), "Error: the bank is closed", "{backend:?}");
        assert_eq!(runs.of("refund"), 1);
        // The approval was used by that attempt: the retry, which would run the body again,
        // asks anew (the same id), and runs once that is decided.
        let asked_again = registry.execute(input.clone()).await;
        assert_eq!(
            code(&asked_again),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: an approval is used once: {}",
            asked_again.text()
        );
        assert_eq!(approval_id(&asked_again.text()), id, "{backend:?}");
        assert_eq!(runs.of("refund"), 1, "{backend:?}");
        let pending = registry.pending_approvals().await.expect("list");
        assert_eq!(pending.len(), 1, "{backend:?}: {pending:?}");
        assert_eq!(pending[0].decided_by, None);
        assert!(
            registry
                .decide_approval(&id, true, "bob")
                .await
                .expect("decide")
        );
        let refunded = registry.execute(input.clone()).await;
        assert_eq!(refunded.text(), "refunded", "{backend:?}");
        let replayed = registry.execute(input).await;
        assert!(replayed.is_replayed(), "{backend:?}: {}", replayed.text());
        assert_eq!(runs.of("refund"), 2, "{backend:?}: one run per decision");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_approval_is_no_longer_listed_as_waiting() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "expired-listing");
        let runs = Runs::default();
        let registry = process_with(
            &shared,
            "replica-a",
            &runs,
            SECRET,
            Duration::from_millis(100),
        );
        let waiting = registry
            .execute(call("x-1", "pay", json!({"cents": 1})))
            .await;
        let id = approval_id(&waiting.text());
        let pending = registry.pending_approvals().await.expect("list");
        assert_eq!(pending.len(), 1, "{backend:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
        let pending = registry.pending_approvals().await.expect("list");
        assert!(
            pending.iter().all(|record| record.id != id),
            "{backend:?}: an approval nobody can decide any more is not waiting: {pending:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_attempts_racing_run_the_body_once() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "race");
        let runs = Runs::default();
        let first_process = process(&shared, "replica-a", &runs);
        let second_process = process(&shared, "replica-b", &runs);
        // `slow`'s first run waits until it is cancelled.
        let input = call("race-1", "slow", json!({"n": 1}));
        let signal = CancellationToken::new();
        let running = {
            let registry = first_process.clone();
            let input = input.clone().with_signal(signal.clone());
            tokio::spawn(async move { registry.execute(input).await })
        };
        // Wait until the first attempt's body runs.
        for _ in 0..500 {
            if runs.of("slow") == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(runs.of("slow"), 1);
        let beside = second_process.execute(input.clone()).await;
        assert_eq!(
            code(&beside),
            Some(ErrorCode::CallInDoubt.as_str()),
            "{backend:?}: {}",
            beside.text()
        );
        assert!(
            beside.text().contains(" on replica-a "),
            "{}",
            beside.text()
        );
        signal.cancel();
        let _ = running.await.expect("first attempt");
        assert_eq!(runs.of("slow"), 1, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_call_in_doubt_runs_again_only_on_a_new_decision() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "approved-in-doubt");
        let runs = Runs::default();
        let registry = ToolRegistry::new();
        // `wire` is plain; `wire_idem` idempotent: the first run of each hangs past its timeout.
        for tool in [
            counted(
                "wire",
                &runs,
                First::Hangs,
                ToolAnnotations::default(),
                JournalPolicy::default(),
            ),
            counted(
                "wire_idem",
                &runs,
                First::Hangs,
                idempotent(),
                JournalPolicy::default(),
            ),
        ] {
            let _ = registry.register(tool).expect("registers");
        }
        let _ = registry
            .on_pre_execute(|_, _| async {
                Ok(PreToolDecision::Ask {
                    reason: Some("wires need a person".to_owned()),
                })
            })
            .expect("hook");
        registry.set_durability(shared.durability("replica-a", SECRET, Duration::from_secs(3_600)));

        let plain = call("w-1", "wire", json!({"cents": 1}));
        let id = approval_id(&registry.execute(plain.clone()).await.text());
        approve(&registry, &id).await;
        let timed_out = registry.execute(plain.clone()).await;
        assert_eq!(code(&timed_out), Some(ErrorCode::ToolTimeout.as_str()));
        // In doubt: the journal answers, nobody is asked again.
        let doubt = registry.execute(plain.clone()).await;
        assert_eq!(
            code(&doubt),
            Some(ErrorCode::CallInDoubt.as_str()),
            "{backend:?}: {}",
            doubt.text()
        );
        assert!(registry.pending_approvals().await.expect("list").is_empty());
        // Let run again: the body would run a second time, so a person decides again.
        assert!(
            registry
                .decide_call(&key_of(&plain), CallDecision::RunAgain)
                .await
                .expect("decide")
        );
        let asked = registry.execute(plain.clone()).await;
        assert_eq!(
            code(&asked),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: {}",
            asked.text()
        );
        assert_eq!(runs.of("wire"), 1, "{backend:?}");
        assert!(
            registry
                .decide_approval(&id, true, "bob")
                .await
                .expect("decide")
        );
        let ran = registry.execute(plain).await;
        assert!(!ran.is_error(), "{backend:?}: {}", ran.text());
        assert_eq!(runs.of("wire"), 2, "{backend:?}");

        // An idempotent tool in doubt would run again: it asks anew too.
        let idem = call("w-2", "wire_idem", json!({"cents": 2}));
        let id = approval_id(&registry.execute(idem.clone()).await.text());
        assert!(
            registry
                .decide_approval(&id, false, "carol")
                .await
                .expect("decide")
        );
        let denied = registry.execute(idem.clone()).await;
        assert_eq!(code(&denied), Some(ErrorCode::Denied.as_str()));
        let other = call("w-3", "wire_idem", json!({"cents": 3}));
        let id = approval_id(&registry.execute(other.clone()).await.text());
        approve(&registry, &id).await;
        let timed_out = registry.execute(other.clone()).await;
        assert_eq!(code(&timed_out), Some(ErrorCode::ToolTimeout.as_str()));
        let asked = registry.execute(other).await;
        assert_eq!(
            code(&asked),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: {}",
            asked.text()
        );
        assert_eq!(runs.of("wire_idem"), 1, "{backend:?}");
    }
}

/// `upstream` served over MCP to a new client, its tools imported into a registry of their own
/// (without a store), unprefixed, their calls timing out after `timeout_ms`; keep the client
/// and the connection for as long as the tools are used.
async fn client_of(
    upstream: &ToolRegistry,
    timeout_ms: Option<u64>,
) -> (
    ToolRegistry,
    dsh_tools::mcp::McpClient,
    dsh_tools::mcp::McpConnection,
) {
    use dsh_tools::mcp::{ConnectOptions, ImportOptions, McpClient, McpServer};
    let server = McpServer::new(upstream);
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    let _names = client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some(String::new()),
                timeout_ms,
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    (local, client, connection)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_tool_runs_again_after_an_unknown_outcome_only_when_its_server_says_so() {
    let runs = Runs::default();
    let upstream = ToolRegistry::new();
    for tool in [
        counted(
            "post",
            &runs,
            First::Waits,
            ToolAnnotations::default(),
            JournalPolicy::default(),
        ),
        counted(
            "put",
            &runs,
            First::Waits,
            idempotent(),
            JournalPolicy::default(),
        ),
    ] {
        let _ = upstream.register(tool).expect("registers");
    }
    // Imported calls time out after 100 ms, on the in-memory store.
    let (local, _client, _connection) = client_of(&upstream, Some(100)).await;
    local.set_durability(Durability::new(MemoryStore::default()).with_place("importer"));
    assert_eq!(
        local
            .get("put")
            .expect("imported")
            .options()
            .annotations
            .idempotent,
        Some(true)
    );
    for tool in ["post", "put"] {
        let input = ToolExecutionInput::new("mcp-1", tool, json!({}));
        let first = local.execute(input.clone()).await;
        assert_eq!(
            code(&first),
            Some(ErrorCode::ToolTimeout.as_str()),
            "{tool}: {}",
            first.text()
        );
        let retry = local.execute(input).await;
        if tool == "post" {
            assert_eq!(
                code(&retry),
                Some(ErrorCode::CallInDoubt.as_str()),
                "{}",
                retry.text()
            );
        } else {
            assert!(
                !retry.is_error() && !retry.is_replayed(),
                "{}",
                retry.text()
            );
        }
    }
    assert_eq!((runs.of("post"), runs.of("put")), (1, 2));
}

#[tokio::test]
async fn without_a_store_the_decisions_are_errors_not_panics() {
    let registry = ToolRegistry::new();
    assert!(registry.calls_in_doubt().await.is_err());
    assert!(
        registry
            .decide_call("idem-0", CallDecision::RunAgain)
            .await
            .is_err()
    );
    assert!(registry.pending_approvals().await.is_err());
    assert!(registry.decide_approval("appr-0", true, "x").await.is_err());
    // A store without an approval key: an `ask` nobody answers is a denial, as without a store,
    // and deciding an approval is an error.
    let runs = Runs::default();
    let _ = registry
        .register(counted(
            "pay",
            &runs,
            First::Answers,
            ToolAnnotations::default(),
            JournalPolicy::default(),
        ))
        .expect("pay");
    let _ = registry
        .on_pre_execute(|_, _| async { Ok(PreToolDecision::Ask { reason: None }) })
        .expect("hook");
    registry.set_durability(Durability::new(MemoryStore::default()));
    let denied = registry
        .execute(call("k-1", "pay", json!({"cents": 1})))
        .await;
    assert_eq!(
        code(&denied),
        Some(ErrorCode::Denied.as_str()),
        "{}",
        denied.text()
    );
    assert!(registry.decide_approval("appr-0", true, "x").await.is_err());
    assert_eq!(runs.of("pay"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_program_sees_a_rejection_and_a_nested_call_in_doubt() {
    // The pause is not the program's to catch; the rejection after it is.
    const REJECTED: &str = "const a = await tools.a({x: 1});\n\
        try { await tools.pay({cents: 5}); } catch (e) { return [a.run, e.code]; }\n\
        return 'paid';";
    // `ship`'s first run hangs past its timeout; the program does not catch it.
    const IN_DOUBT: &str = "await tools.ship({parcel: 1});\nreturn 'shipped';";
    for backend in BACKENDS {
        let shared = Shared::new(backend, "program-edges");
        let runs = Runs::default();
        let registry = process(&shared, "replica-a", &runs);
        let input = run_code("run-r", REJECTED);
        let paused = registry.execute(input.clone()).await;
        assert_eq!(
            code(&paused),
            Some(ErrorCode::ApprovalPending.as_str()),
            "{backend:?}: {}",
            paused.text()
        );
        let id = approval_id(&paused.text());
        assert!(
            registry
                .decide_approval(&id, false, "carol")
                .await
                .expect("decide")
        );
        let other = process(&shared, "replica-b", &runs);
        let resumed = other.execute(input).await;
        assert!(!resumed.is_error(), "{backend:?}: {}", resumed.text());
        assert_eq!(
            resumed.value().map(|value| &value["result"]),
            Some(&json!([1, "DENIED"])),
            "{backend:?}: {}",
            resumed.text()
        );
        assert_eq!((runs.of("a"), runs.of("pay")), (1, 0), "{backend:?}");

        let input = run_code("run-d", IN_DOUBT);
        let failed = registry.execute(input.clone()).await;
        assert_eq!(
            code(&failed),
            Some(ErrorCode::CodeRunFailed.as_str()),
            "{backend:?}: {}",
            failed.text()
        );
        let again = other.execute(input).await;
        assert_eq!(
            code(&again),
            Some(ErrorCode::CodeRunFailed.as_str()),
            "{backend:?}: {}",
            again.text()
        );
        assert!(
            again.text().contains("its outcome is unknown"),
            "{backend:?}: the program was told the call is in doubt: {}",
            again.text()
        );
        assert_eq!(runs.of("ship"), 1, "{backend:?}: never run twice");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_registry_never_replays_one_clients_call_to_another() {
    for backend in BACKENDS {
        let shared = Shared::new(backend, "served");
        let runs = Runs::default();
        let upstream = ToolRegistry::new();
        let _ = upstream
            .register(counted(
                "charge",
                &runs,
                First::Answers,
                ToolAnnotations::default(),
                JournalPolicy::default(),
            ))
            .expect("charge");
        upstream.set_durability(shared.durability("server", SECRET, Duration::from_secs(3_600)));
        // Two clients, each with its own session, make the same first call: two charges.
        let (first, _first_client, _first_connection) = client_of(&upstream, None).await;
        let (second, _second_client, _second_connection) = client_of(&upstream, None).await;
        for (registry, call_id) in [(&first, "alice-1"), (&second, "bob-1")] {
            let charged = registry
                .execute(ToolExecutionInput::new(
                    call_id,
                    "charge",
                    json!({"cents": 500}),
                ))
                .await;
            assert!(!charged.is_error(), "{backend:?}: {}", charged.text());
        }
        assert_eq!(
            runs.of("charge"),
            2,
            "{backend:?}: each client's call is a call of its own"
        );
        // A retry of a call sends its key again: the served journal replays it.
        let retry = first
            .execute(ToolExecutionInput::new(
                "alice-1",
                "charge",
                json!({"cents": 500}),
            ))
            .await;
        assert!(!retry.is_error(), "{backend:?}: {}", retry.text());
        assert_eq!(runs.of("charge"), 2, "{backend:?}: the retry was replayed");
        // The same arguments under another call id: another call.
        let another = second
            .execute(ToolExecutionInput::new(
                "bob-2",
                "charge",
                json!({"cents": 500}),
            ))
            .await;
        assert!(!another.is_error(), "{backend:?}: {}", another.text());
        assert_eq!(runs.of("charge"), 3, "{backend:?}");
    }
}
