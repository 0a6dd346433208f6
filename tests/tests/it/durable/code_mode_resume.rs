//! Code Mode runs that resume after an approval: a `run_code` program whose nested call waits
//! for an approval nobody answers pauses the run (`APPROVAL_PENDING`, naming the approval and the
//! run); once the approval is decided, the retry of the run re-runs the program with every call
//! it already made answered from the journal (no body runs twice); a program that takes another
//! path on the retry ends `CODE_RUN_DIVERGED` and runs nothing more. Calls running beside the
//! paused one end and are recorded; a run that left no outcome (its wall time ran out) runs its
//! program again rather than being in doubt. On the in-memory store and on a SQLite file
//! re-opened between the attempts, as a restarted process would.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::call::BoxFuture;
use dsh_tools::code_mode::{CodeLimits, CodeMode};
use dsh_tools::durable::{
    ApprovalKey, ApprovalRecord, ApprovalState, CallStore, Durability, JournalEntry, JournalPolicy,
    JournalState, MemoryStore, SqliteStore, StoreError, TaskRecord, TaskState,
};
use dsh_tools::errors::ErrorCode;
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value, json,
};

/// How often each tool's body ran, across every registry (process) of a test.
#[derive(Clone, Default)]
struct Runs {
    a: Arc<AtomicUsize>,
    b: Arc<AtomicUsize>,
    pay: Arc<AtomicUsize>,
    flag: Arc<AtomicUsize>,
}

impl Runs {
    /// `(a, b, pay)`.
    fn counts(&self) -> (usize, usize, usize) {
        (
            self.a.load(Ordering::SeqCst),
            self.b.load(Ordering::SeqCst),
            self.pay.load(Ordering::SeqCst),
        )
    }
}

/// A tool that counts its body's runs in `runs` and answers its arguments.
fn counted(name: &'static str, runs: &Arc<AtomicUsize>, journal: JournalPolicy) -> FnTool {
    let runs = Arc::clone(runs);
    FnTool::builder(name, "Counts its runs.")
        .raw_parameters(json!({"type": "object"}))
        // Calls of a program's `Promise.all` run side by side.
        .concurrency_classifier(|_| true)
        .options(dsh_tools::call::ToolOptions {
            journal,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |arguments, _run| {
            let runs = Arc::clone(&runs);
            async move {
                let run = runs.fetch_add(1, Ordering::SeqCst) + 1;
                Ok(json!({"tool": name, "args": arguments, "run": run}))
            }
        })
}

/// A registry on `store` (as one process would have it): tools `a`, `b`, `pay` (which asks for
/// an approval nobody answers now) and `flag`, which the journal does not cover and which
/// answers how often it ran (what a program reading the clock would see change between
/// attempts).
fn registry(store: Arc<dyn CallStore>, runs: &Runs) -> ToolRegistry {
    let registry = ToolRegistry::new();
    for tool in [
        counted("a", &runs.a, JournalPolicy::default()),
        counted("b", &runs.b, JournalPolicy::default()),
        counted("pay", &runs.pay, JournalPolicy::default()),
        counted(
            "flag",
            &runs.flag,
            JournalPolicy {
                enabled: false,
                answer_within_ms: None,
            },
        ),
    ] {
        let _ = registry.register(tool).expect("registers");
    }
    registry.set_code_mode(CodeMode::Code).expect("code mode");
    let _ = registry
        .on_pre_execute(|execution, next| async move {
            if execution.name() == "pay" {
                return Ok(PreToolDecision::Ask {
                    reason: Some("paying needs a person".to_owned()),
                });
            }
            next.run().await
        })
        .expect("hook");
    registry.set_durability(
        Durability::new(store)
            .with_place("resume-test")
            .with_approvals(ApprovalKey::new(
                b"a test key of thirty-two bytes!!".to_vec(),
                Duration::from_secs(3_600),
            )),
    );
    registry
}

/// The program of the run: `a`, then `pay`, whose failure it would catch if it saw one.
const PROGRAM: &str = "const a = await tools.a({x: 1});\n\
    let paid;\n\
    try { paid = await tools.pay({cents: 500}); } catch (e) { return {caught: e.code}; }\n\
    return {a: a.args, paid: paid.args};";

fn run_input(call_id: &str, program: &str) -> ToolExecutionInput {
    ToolExecutionInput::new(call_id.to_owned(), RUN_CODE, json!({ "code": program }))
}

/// The run's own idempotency key (no agent).
fn run_key(input: &ToolExecutionInput) -> String {
    dsh_tools::durable::idempotency_key(&input.call_id, &input.name, None, &input.arguments)
}

fn program_result(result: &ToolExecutionResult) -> Option<&Value> {
    result.value().map(|value| &value["result"])
}

/// Runs the program until it pauses at `pay`; answers the pending approval's id.
async fn pauses_at_pay(registry: &ToolRegistry, input: &ToolExecutionInput, runs: &Runs) -> String {
    let paused = registry.execute(input.clone()).await;
    assert_eq!(
        paused.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "the program must not see the pause: {}",
        paused.text()
    );
    let pending = registry.pending_approvals().await.expect("list");
    assert_eq!(pending.len(), 1, "{pending:?}");
    assert_eq!(pending[0].tool, "pay");
    let id = pending[0].id.clone();
    assert!(
        paused.text().contains(&id),
        "names the approval: {}",
        paused.text()
    );
    assert!(
        paused.text().contains(&run_key(input)),
        "names the run: {}",
        paused.text()
    );
    assert!(paused.text().contains("at call 2"), "{}", paused.text());
    assert_eq!(runs.counts(), (1, 0, 0), "`a` ran, `pay` waits");
    id
}

/// Approves, as `alice`, the one approval `registry`'s store has waiting.
async fn approve_the_pending(registry: &ToolRegistry) {
    let pending = registry.pending_approvals().await.expect("list");
    assert_eq!(pending.len(), 1, "one approval waits");
    assert!(
        registry
            .decide_approval(&pending[0].id, true, "alice")
            .await
            .expect("decide")
    );
}

/// After the decision, the retry resumes: `a` is answered from the journal, `pay` runs once;
/// the next retry replays the run whole.
async fn resumes(registry: &ToolRegistry, input: &ToolExecutionInput, runs: &Runs) {
    let resumed = registry.execute(input.clone()).await;
    assert!(!resumed.is_error(), "{}", resumed.text());
    assert!(!resumed.is_replayed());
    assert_eq!(
        program_result(&resumed),
        Some(&json!({"a": {"x": 1}, "paid": {"cents": 500}}))
    );
    assert_eq!(runs.counts(), (1, 0, 1), "no body ran twice");

    let again = registry.execute(input.clone()).await;
    assert!(again.is_replayed(), "{}", again.text());
    assert_eq!(again.text(), resumed.text());
    assert_eq!(runs.counts(), (1, 0, 1), "a replay runs nothing");
}

#[tokio::test]
async fn a_run_pauses_at_an_approval_and_resumes_once_it_is_decided() {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    let input = run_input("run-1", PROGRAM);
    let id = pauses_at_pay(&registry, &input, &runs).await;

    // Retried before anyone decided: it pauses at the same call again, running nothing.
    let still = registry.execute(input.clone()).await;
    assert_eq!(
        still.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        still.text()
    );
    assert!(still.text().contains(&id));
    assert_eq!(runs.counts(), (1, 0, 0));

    assert!(
        registry
            .decide_approval(&id, true, "alice")
            .await
            .expect("decide")
    );
    resumes(&registry, &input, &runs).await;

    // Another call id is another run: it runs from the start and asks again.
    let other = registry.execute(run_input("run-2", PROGRAM)).await;
    assert_eq!(
        other.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        other.text()
    );
    assert_eq!(runs.counts(), (2, 0, 1));
}

#[tokio::test]
async fn a_rejected_approval_reaches_the_program_on_the_retry() {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    let input = run_input("run-1", PROGRAM);
    let id = pauses_at_pay(&registry, &input, &runs).await;
    assert!(
        registry
            .decide_approval(&id, false, "bob")
            .await
            .expect("decide")
    );
    // A denial is an outcome the program may handle: it catches it and returns.
    let retried = registry.execute(input).await;
    assert!(!retried.is_error(), "{}", retried.text());
    assert_eq!(
        program_result(&retried),
        Some(&json!({"caught": ErrorCode::Denied.as_str()}))
    );
    assert_eq!(runs.counts(), (1, 0, 0));
}

#[tokio::test]
async fn without_a_call_store_a_program_sees_the_approval_fail() {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    registry.set_durability(None);
    let result = registry.execute(run_input("run-1", PROGRAM)).await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        program_result(&result),
        Some(&json!({"caught": ErrorCode::Denied.as_str()}))
    );
}

/// A program whose path depends on `flag`, which the journal does not cover: the first attempt
/// takes the first branch, every later one the second.
fn branching(second_branch: &str) -> String {
    format!(
        "const flag = await tools.flag({{}});\n\
         if (flag.run === 1) {{ await tools.a({{x: 1}}); await tools.pay({{cents: 500}}); }}\n\
         else {{ {second_branch} }}\n\
         await tools.b({{}});\n\
         return 'done';"
    )
}

async fn diverges(second_branch: &str, expected: &[&str]) {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    let input = run_input("run-1", &branching(second_branch));
    let paused = registry.execute(input.clone()).await;
    assert_eq!(
        paused.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        paused.text()
    );
    assert!(paused.text().contains("at call 3"), "{}", paused.text());
    approve_the_pending(&registry).await;
    assert_eq!(runs.counts(), (1, 0, 0));

    let diverged = registry.execute(input).await;
    assert_eq!(
        diverged.error_code(),
        Some(ErrorCode::CodeRunDiverged.as_str()),
        "{}",
        diverged.text()
    );
    assert!(
        diverged
            .text()
            .starts_with("Error: the program took another path on resume at call "),
        "{}",
        diverged.text()
    );
    for part in expected {
        assert!(
            diverged.text().contains(part),
            "{part}: {}",
            diverged.text()
        );
    }
    assert_eq!(runs.counts(), (1, 0, 0), "nothing more ran");
}

#[tokio::test]
async fn a_program_that_calls_another_tool_on_the_retry_diverges() {
    diverges(
        "await tools.b({}); await tools.pay({cents: 500});",
        &[
            "at call 2",
            "recorded tools.a there",
            "now it calls tools.b({})",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_program_that_passes_other_arguments_on_the_retry_diverges() {
    diverges(
        "await tools.a({x: 2}); await tools.pay({cents: 500});",
        &[
            "at call 2",
            "recorded tools.a with other arguments there",
            r#"now it calls tools.a({"x":2})"#,
        ],
    )
    .await;
}

#[tokio::test]
async fn a_program_that_asks_the_paused_call_for_other_arguments_diverges() {
    // Position 3 recorded no outcome, only the approval it waits for.
    diverges(
        "await tools.a({x: 1}); await tools.pay({cents: 900});",
        &[
            "at call 3",
            "recorded tools.pay with other arguments there",
            r#"now it calls tools.pay({"cents":900})"#,
        ],
    )
    .await;
}

fn temp_file(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("dsh-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("calls.db");
    (dir, file)
}

fn sqlite(path: &std::path::Path) -> Arc<dyn CallStore> {
    Arc::new(SqliteStore::open(path).expect("open the SQLite file"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_paused_in_one_process_resumes_in_the_next_on_a_sqlite_file() {
    let (dir, file) = temp_file("code-mode-resume");
    let runs = Runs::default();
    let input = run_input("run-1", PROGRAM);
    {
        let first = registry(sqlite(&file), &runs);
        let _id = pauses_at_pay(&first, &input, &runs).await;
    }
    // A new process: the file re-opened, the approval decided there, the run retried.
    let restarted = registry(sqlite(&file), &runs);
    approve_the_pending(&restarted).await;
    drop(restarted);
    let resumed = registry(sqlite(&file), &runs);
    resumes(&resumed, &input, &runs).await;
    drop(resumed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_run_whose_wall_time_ran_out_runs_again_its_calls_answering_for_themselves() {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    // Room for `a` on a busy machine; `slow` then waits out the rest.
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 1_500,
        ..CodeLimits::default()
    });
    // Hangs until it is cancelled (the run's wall time), the first time only.
    let slow_runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&slow_runs);
    let _ = registry
        .register(
            FnTool::builder("slow", "Hangs the first time.")
                .raw_parameters(json!({"type": "object"}))
                .handler(move |_arguments, run| {
                    let counted = Arc::clone(&counted);
                    async move {
                        if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                            run.signal().cancelled().await;
                        }
                        Ok(json!("done"))
                    }
                }),
        )
        .expect("registers");
    let input = run_input(
        "run-1",
        "const a = await tools.a({x: 1});\n\
         try { await tools.slow({}); } catch (e) { return {a: a.args, slow: e.code}; }\n\
         return 'finished';",
    );
    let timed_out = registry.execute(input.clone()).await;
    assert_eq!(
        timed_out.error_code(),
        Some(ErrorCode::ToolTimeout.as_str()),
        "{}",
        timed_out.text()
    );
    assert_eq!(slow_runs.load(Ordering::SeqCst), 1);

    // The run left no outcome, yet it is not in doubt: its program runs again; `a` is replayed
    // and `slow`, which started and recorded nothing, is in doubt to the program.
    let again = registry.execute(input).await;
    assert!(!again.is_error(), "{}", again.text());
    assert_eq!(
        program_result(&again),
        Some(&json!({"a": {"x": 1}, "slow": ErrorCode::CallInDoubt.as_str()}))
    );
    assert_eq!(runs.counts(), (1, 0, 0));
    assert_eq!(slow_runs.load(Ordering::SeqCst), 1, "never run twice");
}

#[tokio::test]
async fn calls_running_beside_the_paused_one_end_and_are_recorded() {
    let runs = Runs::default();
    let registry = registry(Arc::new(MemoryStore::default()), &runs);
    // `fetch` takes a while and runs beside `pay`, which pauses the run at once.
    let fetch_runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&fetch_runs);
    let _ = registry
        .register(
            FnTool::builder("fetch", "Takes a while.")
                .raw_parameters(json!({"type": "object"}))
                .concurrency_classifier(|_| true)
                .handler(move |_arguments, _run| {
                    let counted = Arc::clone(&counted);
                    async move {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        let run = counted.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok(json!({"fetched": run}))
                    }
                }),
        )
        .expect("registers");
    let input = run_input(
        "run-1",
        "const [fetched, paid] = await Promise.all([tools.fetch({}), tools.pay({cents: 5})]);\n\
         return {fetched, paid: paid.args};",
    );
    let paused = registry.execute(input.clone()).await;
    assert_eq!(
        paused.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        paused.text()
    );
    assert_eq!(
        fetch_runs.load(Ordering::SeqCst),
        1,
        "the call beside the paused one ran to its end"
    );
    approve_the_pending(&registry).await;
    let resumed = registry.execute(input).await;
    assert!(!resumed.is_error(), "{}", resumed.text());
    assert_eq!(
        program_result(&resumed),
        Some(&json!({"fetched": {"fetched": 1}, "paid": {"cents": 5}}))
    );
    assert_eq!(
        fetch_runs.load(Ordering::SeqCst),
        1,
        "recorded, then replayed"
    );
    assert_eq!(runs.counts(), (0, 0, 1));
}

/// A memory store that counts, per key, the reads and writes of the journal's entries and of
/// approvals: what each attempt of a run asks the store, which on a server is a round trip each.
#[derive(Default)]
struct Counting {
    inner: MemoryStore,
    asked: Mutex<Vec<(&'static str, String)>>,
}

impl Counting {
    fn note(&self, operation: &'static str, key: &str) {
        self.asked
            .lock()
            .expect("the list")
            .push((operation, key.to_owned()));
    }

    /// The operations asked about the nested calls' positions (`<run key>/<n>`) since the
    /// last call, as `operation n`.
    fn positions(&self, run_key: &str) -> Vec<String> {
        let prefix = format!("{run_key}/");
        let approvals = format!("appr-{}/", run_key.strip_prefix("idem-").unwrap_or(run_key));
        std::mem::take(&mut *self.asked.lock().expect("the list"))
            .into_iter()
            .filter_map(|(operation, key)| {
                let n = key
                    .strip_prefix(&prefix)
                    .or_else(|| key.strip_prefix(&approvals))?;
                Some(format!("{operation} {n}"))
            })
            .collect()
    }
}

impl CallStore for Counting {
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        self.note("insert_entry", &entry.key);
        self.inner.insert_entry(entry)
    }
    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.note("replace_entry", &entry.key);
        self.inner.replace_entry(attempt, state, entry)
    }
    fn entry<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        self.note("entry", key);
        self.inner.entry(key)
    }
    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        self.inner.entries(state)
    }
    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        self.inner.answer(digest)
    }
    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        self.note("insert_approval", &approval.id);
        self.inner.insert_approval(approval)
    }
    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.note("replace_approval", &approval.id);
        self.inner.replace_approval(state, approval)
    }
    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        self.note("approval", id);
        self.inner.approval(id)
    }
    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
        self.inner.approvals(state)
    }
    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        self.inner.insert_task(task)
    }
    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.inner.replace_task(revision, task)
    }
    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        self.inner.task(id)
    }
    fn tasks(
        &self,
        state: Option<TaskState>,
    ) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
        self.inner.tasks(state)
    }
}

#[tokio::test]
async fn a_first_attempt_reads_no_position_and_a_resumed_one_reads_each_once() {
    let store = Arc::new(Counting::default());
    let runs = Runs::default();
    let registry = registry(Arc::clone(&store) as Arc<dyn CallStore>, &runs);
    let program = "const a = await tools.a({x: 1});\n\
        const b = await tools.b({y: 2});\n\
        const paid = await tools.pay({cents: 500});\n\
        return [a.args, b.args, paid.args];";
    let input = run_input("run-count", program);
    let key = run_key(&input);

    let paused = registry.execute(input.clone()).await;
    assert_eq!(
        paused.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        paused.text()
    );
    // Nothing is read before a call of the first attempt starts: each position is written once
    // (its intent, then its outcome) and `pay` asks for its approval.
    let first = store.positions(&key);
    assert_eq!(
        first,
        [
            "insert_entry 1",
            "replace_entry 1",
            "insert_entry 2",
            "replace_entry 2",
            "insert_approval 3"
        ],
        "{first:?}"
    );
    assert_eq!(runs.counts(), (1, 1, 0));

    approve_the_pending(&registry).await;
    let _ = store.positions(&key);

    let resumed = registry.execute(input.clone()).await;
    assert!(!resumed.is_error(), "{}", resumed.text());
    assert_eq!(
        program_result(&resumed),
        Some(&json!([{"x": 1}, {"y": 2}, {"cents": 500}]))
    );
    assert_eq!(runs.counts(), (1, 1, 1), "no body ran twice");
    // A completed position is read once and replayed from what was read; the paused one is
    // read (no entry, then its approval), uses its approval and goes through the journal.
    let resumed = store.positions(&key);
    assert_eq!(
        resumed,
        [
            "entry 1",
            "entry 2",
            "entry 3",
            "approval 3",
            "insert_approval 3",
            "replace_approval 3",
            "insert_entry 3",
            "replace_entry 3"
        ],
        "{resumed:?}"
    );
}
