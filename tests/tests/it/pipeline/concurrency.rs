//! Concurrency: many calls at once while tools come and go; each call sees one consistent
//! snapshot of the hooks; a batch of tools is seen whole or not at all; the execute future can be
//! spawned.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::{FnTool, ToolRegistry, errors::ErrorCode, json};
use dsh_tools_tests::{Log, call, ok_tool, only_text, registry_with};
use tokio::sync::oneshot;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_while_tools_are_registered_and_disposed() {
    let registry = registry_with([ok_tool("stable")]);
    let ok = Arc::new(AtomicUsize::new(0));
    let unknown = Arc::new(AtomicUsize::new(0));
    let churn = {
        let registry = registry.clone();
        tokio::spawn(async move {
            for round in 0..200 {
                let handle = registry
                    .register(ok_tool("flaky"))
                    .expect("flaky is disposed each round");
                let scope = registry
                    .create_child(format!("agent-{round}"))
                    .expect("fresh agent");
                let _ = scope.register(ok_tool("scoped")).expect("fresh scope");
                tokio::task::yield_now().await;
                handle.dispose();
                scope.dispose();
            }
        })
    };
    let mut calls = Vec::new();
    for index in 0..1_000 {
        let registry = registry.clone();
        let (ok, unknown) = (Arc::clone(&ok), Arc::clone(&unknown));
        calls.push(tokio::spawn(async move {
            let name = if index % 2 == 0 { "stable" } else { "flaky" };
            let result = registry.execute(call(name)).await;
            match result.error_code() {
                None => {
                    assert_eq!(only_text(&result), "ok");
                    ok.fetch_add(1, Ordering::SeqCst);
                }
                Some(code) if code == ErrorCode::UnknownTool => {
                    assert_eq!(name, "flaky", "the stable tool is always there");
                    unknown.fetch_add(1, Ordering::SeqCst);
                }
                Some(other) => panic!("unexpected outcome {other}"),
            }
        }));
    }
    for handle in calls {
        handle.await.expect("no call panicked");
    }
    churn.await.expect("churn finished");
    assert_eq!(
        ok.load(Ordering::SeqCst) + unknown.load(Ordering::SeqCst),
        1_000
    );
    assert!(ok.load(Ordering::SeqCst) >= 500);
    assert!(registry.get("flaky").is_none());
    assert_eq!(registry.schemas().len(), 1);
}

#[tokio::test]
async fn a_call_keeps_the_hooks_of_the_snapshot_it_started_with() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    let (entered, wait_entered) = oneshot::channel::<()>();
    let (release, wait_release) = oneshot::channel::<()>();
    let entered = std::sync::Mutex::new(Some(entered));
    let wait_release = Arc::new(tokio::sync::Mutex::new(Some(wait_release)));
    let _ = registry
        .register(FnTool::builder("slow", "").handler(move |_, _| {
            if let Some(entered) = entered.lock().unwrap().take() {
                let _ = entered.send(());
            }
            let wait_release = Arc::clone(&wait_release);
            async move {
                if let Some(release) = wait_release.lock().await.take() {
                    let _ = release.await;
                }
                Ok(json!("done"))
            }
        }))
        .unwrap();
    let running = tokio::spawn(registry.execute(call("slow")));
    wait_entered.await.unwrap();
    // Registered while the call is in its body: the running call must not see it.
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("late post hook");
        next.run()
    });
    release.send(()).unwrap();
    let result = running.await.unwrap();
    assert_eq!(only_text(&result), "done");
    assert!(log.entries().is_empty());
    registry.execute(call("slow")).await;
    assert_eq!(log.entries(), ["late post hook"], "the next call sees it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hooks_registered_concurrently_are_all_kept() {
    let registry = registry_with([ok_tool("t")]);
    let mut tasks = Vec::new();
    for index in 0..50 {
        let registry = registry.clone();
        tasks.push(tokio::spawn(async move {
            registry.on_pre_execute(move |_, next| async move {
                let _ = index;
                next.run().await
            })
        }));
    }
    for task in tasks {
        let _handle = task.await.unwrap();
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&calls);
    let _ = registry.on_pre_execute(move |_, next| {
        count.fetch_add(1, Ordering::SeqCst);
        next.run()
    });
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the whole chain of 51 listeners ran to the end"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_scoped_calls_see_their_own_scope() {
    let registry = ToolRegistry::new();
    let mut tasks = Vec::new();
    for index in 0..100 {
        let registry = registry.clone();
        tasks.push(tokio::spawn(async move {
            let scope = registry.create_child(format!("a{index}")).unwrap();
            let _ = scope
                .register(
                    FnTool::builder("whoami", "")
                        .handler(move |_, _| async move { Ok(json!(index)) }),
                )
                .unwrap();
            let _ = scope
                .on_pre_execute(move |execution, next| async move {
                    assert_eq!(execution.agent().unwrap().as_str(), format!("a{index}"));
                    next.run().await
                })
                .unwrap();
            let result = scope.execute(call("whoami")).await;
            assert_eq!(result.value(), Some(&json!(index)));
            scope.dispose();
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert!(registry.schemas().is_empty());
}

#[test]
fn a_batch_of_tools_appears_and_goes_as_a_whole() {
    let registry = ToolRegistry::new();
    let agent = dsh_tools::AgentId::from("importer");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (registry, agent, stop) = (registry.clone(), agent.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let names: Vec<String> = registry
                    .layer_for(&agent)
                    .map(|layer| layer.schemas())
                    .unwrap_or_default()
                    .iter()
                    .map(|schema| schema.name.clone())
                    .collect();
                match names.as_slice() {
                    [] => {}
                    [x, y, z] if [x, y, z] == ["x", "y", "z"] => {}
                    partial => panic!("a call saw part of a batch: {partial:?}"),
                }
            }
        })
    };
    for _ in 0..300 {
        // A batch into a fresh scope, then the scope with everything in it: each one change.
        let scope = registry.create_child(agent.clone()).unwrap();
        let _ = scope
            .register_all([ok_tool("z"), ok_tool("x"), ok_tool("y")])
            .unwrap();
        assert!(scope.dispose());
    }
    stop.store(true, Ordering::SeqCst);
    reader.join().expect("the reader never saw part of a batch");
}
