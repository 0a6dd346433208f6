//! Every error result carries a code, so code can tell failures apart: denials (`DENIED`), a
//! tool's uncoded error (`TOOL_ERROR`), failing hooks (`HOOK_FAILED`), blocked results
//! (`BLOCKED`), failing finalizers (`FINALIZER_FAILED`); an error with a code of its own keeps it.
//! The model-facing texts stay as they were.

use dsh_tools::{
    ContentBlock, FnTool, PostToolDecision, PreToolDecision, ToolError, ToolExecutionResult,
    ToolRegistry,
    errors::{ErrorCode, ErrorInfo},
    hooks::{ApprovalOutcome, approver_fn},
    json,
};
use dsh_tools_tests::{call, ok_tool, only_text, registry_with};

/// The `(name, code)` pair and the text of `result`.
fn coded(result: &ToolExecutionResult) -> (String, String, String) {
    let info = result
        .error()
        .expect("an error result")
        .info()
        .expect("every error result has a code");
    (info.name.to_string(), info.code.to_string(), result.text())
}

fn expect(result: &ToolExecutionResult, name: &str, code: &str, text: &str) {
    assert_eq!(
        coded(result),
        (name.to_owned(), code.to_owned(), text.to_owned())
    );
}

#[test]
fn codes_and_names_are_the_documented_strings() {
    let pairs = [
        (
            ErrorCode::UnknownTool.as_str(),
            "UNKNOWN_TOOL",
            ErrorCode::UnknownTool.name(),
            "ToolNotFoundError",
        ),
        (
            ErrorCode::InvalidArgs.as_str(),
            "INVALID_ARGS",
            ErrorCode::InvalidArgs.name(),
            "ToolArgsError",
        ),
        (
            ErrorCode::InvalidToolOutput.as_str(),
            "INVALID_TOOL_OUTPUT",
            ErrorCode::InvalidToolOutput.name(),
            "ToolOutputError",
        ),
        (
            ErrorCode::Aborted.as_str(),
            "ABORTED",
            ErrorCode::Aborted.name(),
            "AbortError",
        ),
        (
            ErrorCode::AbortedBeforeDispatch.as_str(),
            "ABORTED_BEFORE_DISPATCH",
            ErrorCode::AbortedBeforeDispatch.name(),
            "AbortError",
        ),
        (
            ErrorCode::ToolTimeout.as_str(),
            "TOOL_TIMEOUT",
            ErrorCode::ToolTimeout.name(),
            "ToolTimeoutError",
        ),
        (
            ErrorCode::TimerUnavailable.as_str(),
            "TIMER_UNAVAILABLE",
            ErrorCode::TimerUnavailable.name(),
            "ToolTimeoutError",
        ),
        (
            ErrorCode::ToolPanicked.as_str(),
            "TOOL_PANICKED",
            ErrorCode::ToolPanicked.name(),
            "ToolPanicError",
        ),
        (
            ErrorCode::ToolError.as_str(),
            "TOOL_ERROR",
            ErrorCode::ToolError.name(),
            "ToolError",
        ),
        (
            ErrorCode::Denied.as_str(),
            "DENIED",
            ErrorCode::Denied.name(),
            "ToolDeniedError",
        ),
        (
            ErrorCode::ApprovalPending.as_str(),
            "APPROVAL_PENDING",
            ErrorCode::ApprovalPending.name(),
            "ToolApprovalPendingError",
        ),
        (
            ErrorCode::Blocked.as_str(),
            "BLOCKED",
            ErrorCode::Blocked.name(),
            "ToolBlockedError",
        ),
        (
            ErrorCode::HookFailed.as_str(),
            "HOOK_FAILED",
            ErrorCode::HookFailed.name(),
            "HookError",
        ),
        (
            ErrorCode::FinalizerFailed.as_str(),
            "FINALIZER_FAILED",
            ErrorCode::FinalizerFailed.name(),
            "ToolFinalizerError",
        ),
        (
            ErrorCode::McpTransport.as_str(),
            "MCP_TRANSPORT",
            ErrorCode::McpTransport.name(),
            "McpTransportError",
        ),
        (
            ErrorCode::UnsupportedSchema.as_str(),
            "UNSUPPORTED_SCHEMA",
            ErrorCode::UnsupportedSchema.name(),
            "JsonSchemaError",
        ),
        (
            ErrorCode::ScopeDisposed.as_str(),
            "SCOPE_DISPOSED",
            ErrorCode::ScopeDisposed.name(),
            "ToolScopeError",
        ),
        (
            ErrorCode::UnknownAgent.as_str(),
            "UNKNOWN_AGENT",
            ErrorCode::UnknownAgent.name(),
            "ToolScopeError",
        ),
        (
            ErrorCode::CodeRunFailed.as_str(),
            "CODE_RUN_FAILED",
            ErrorCode::CodeRunFailed.name(),
            "CodeRunError",
        ),
        (
            ErrorCode::CodeRunDiverged.as_str(),
            "CODE_RUN_DIVERGED",
            ErrorCode::CodeRunDiverged.name(),
            "CodeRunDivergedError",
        ),
        (
            ErrorCode::CallInDoubt.as_str(),
            "CALL_IN_DOUBT",
            ErrorCode::CallInDoubt.name(),
            "CallInDoubtError",
        ),
        (
            ErrorCode::StoreFailed.as_str(),
            "STORE_FAILED",
            ErrorCode::StoreFailed.name(),
            "CallStoreError",
        ),
    ];
    for (code, code_text, name, name_text) in pairs {
        assert_eq!((code, name), (code_text, name_text));
    }
}

/// A code compares with its text both ways and becomes it, and names its family, so code that
/// reads an `ErrorInfo`'s strings can name the registry's codes and names without spelling them.
#[test]
fn codes_and_names_compare_with_their_text() {
    let info = ErrorInfo {
        name: ErrorCode::InvalidArgs.name().into(),
        code: ErrorCode::InvalidArgs.into(),
    };
    let spelled = ErrorInfo {
        name: "ToolArgsError".into(),
        code: "INVALID_ARGS".into(),
    };
    assert_eq!(info, spelled);
    assert_eq!(info.code, ErrorCode::InvalidArgs);
    assert_eq!(ErrorCode::InvalidArgs, info.code);
    assert_eq!(info.name, ErrorCode::InvalidArgs.name());
    assert_ne!(info.name, ErrorCode::UnknownTool.name());
    assert_ne!(info.code, ErrorCode::UnknownTool);
    assert_eq!(ErrorCode::Denied, "DENIED");
    assert_eq!("DENIED", ErrorCode::Denied);
    assert_eq!(ErrorCode::Denied, *"DENIED");
    assert_eq!(*"DENIED", ErrorCode::Denied);
    let owned = String::from("DENIED");
    assert_eq!(ErrorCode::Denied, owned);
    assert_eq!(owned, ErrorCode::Denied);
    assert_ne!(ErrorCode::Denied, "denied");
    assert_eq!(ErrorCode::CallInDoubt.to_string(), "CALL_IN_DOUBT");
    assert_eq!(String::from(ErrorCode::StoreFailed), "STORE_FAILED");
    let error = ToolError::coded(ErrorCode::HookFailed.name(), ErrorCode::HookFailed, "boom");
    assert_eq!(error.info().map(|info| &*info.code), Some("HOOK_FAILED"));
    assert_eq!(error.info().map(|info| &*info.name), Some("HookError"));
}

/// The constants the codes and names were still build, deprecated, with the same text, so
/// code written against them moves at its own pace.
#[test]
#[allow(deprecated)]
fn the_former_constants_still_name_the_same_texts() {
    use dsh_tools::errors::{codes, names};
    assert_eq!(codes::INVALID_ARGS, ErrorCode::InvalidArgs.as_str());
    assert_eq!(codes::CALL_IN_DOUBT, "CALL_IN_DOUBT");
    assert_eq!(codes::STORE_FAILED, ErrorCode::StoreFailed);
    assert_eq!(names::TOOL_ARGS, ErrorCode::InvalidArgs.name());
    assert_eq!(names::STORE_FAILED, "CallStoreError");
    let error = ToolError::coded(names::HOOK, codes::HOOK_FAILED, "boom");
    assert_eq!(
        error.info().map(|info| &*info.code),
        Some(codes::HOOK_FAILED)
    );
    assert_eq!(
        error.info(),
        Some(&ErrorInfo {
            name: ErrorCode::HookFailed.name().into(),
            code: ErrorCode::HookFailed.into(),
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Denials.

#[tokio::test]
async fn a_pre_execute_denial_is_denied() {
    let registry = registry_with([ok_tool("t")]);
    let _deny = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "not today".to_owned(),
        })
    });
    let result = registry.execute(call("t")).await;
    expect(&result, "ToolDeniedError", "DENIED", "Error: not today");
}

#[tokio::test]
async fn a_guard_denial_is_denied() {
    let registry = registry_with([ok_tool("t")]);
    let _guard = registry.guard(|_| Some("outside the sandbox".to_owned()));
    let result = registry.execute(call("t")).await;
    expect(
        &result,
        "ToolDeniedError",
        "DENIED",
        "Error: outside the sandbox",
    );
}

#[tokio::test]
async fn an_ask_without_approver_and_an_approval_rejection_are_denied() {
    let registry = registry_with([ok_tool("t")]);
    let _ask = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("writes files".to_owned()),
        })
    });
    expect(
        &registry.execute(call("t")).await,
        "ToolDeniedError",
        "DENIED",
        "Error: writes files",
    );
    let _ = registry.set_approver(approver_fn(|_| async { Ok(ApprovalOutcome::Rejected) }));
    expect(
        &registry.execute(call("t")).await,
        "ToolDeniedError",
        "DENIED",
        "Error: the user rejected tool \"t\"",
    );
}

// ---------------------------------------------------------------------------------------------
// The tool's own errors.

#[tokio::test]
async fn a_tools_uncoded_error_is_tool_error_and_a_coded_one_keeps_its_code() {
    let registry = registry_with([
        FnTool::builder("plain", "")
            .handler(|_, _| async { Err::<(), _>(ToolError::new("disk full")) }),
        FnTool::builder("coded", "").handler(|_, _| async {
            Err::<(), _>(ToolError::coded("IoError", "ENOSPC", "disk full"))
        }),
    ]);
    expect(
        &registry.execute(call("plain")).await,
        "ToolError",
        "TOOL_ERROR",
        "Error: disk full",
    );
    expect(
        &registry.execute(call("coded")).await,
        "IoError",
        "ENOSPC",
        "Error: disk full",
    );
}

#[tokio::test]
async fn a_layers_own_uncoded_failure_is_tool_error() {
    let registry = registry_with([ok_tool("t")]);
    let _cache = registry.on_execute(|_, _| async {
        Ok(ToolExecutionResult::failure(ToolError::new("rate limited")))
    });
    expect(
        &registry.execute(call("t")).await,
        "ToolError",
        "TOOL_ERROR",
        "Error: rate limited",
    );
}

// ---------------------------------------------------------------------------------------------
// Failing hooks.

#[tokio::test]
async fn a_pre_execute_listener_that_fails_or_panics_is_hook_failed() {
    let registry = registry_with([ok_tool("t")]);
    let hook = registry
        .on_pre_execute(|_, _| async { Err(ToolError::new("policy store down")) })
        .unwrap();
    expect(
        &registry.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: policy store down",
    );
    hook.dispose();
    let _panics = registry.on_pre_execute(|_, _| async { panic!("bad policy") });
    expect(
        &registry.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: pre-execute listener panicked: bad policy",
    );
}

#[tokio::test]
async fn a_hooks_coded_error_keeps_its_code() {
    let registry = registry_with([ok_tool("t")]);
    let _hook = registry.on_pre_execute(|_, _| async {
        Err(ToolError::coded("QuotaError", "QUOTA", "quota exhausted"))
    });
    expect(
        &registry.execute(call("t")).await,
        "QuotaError",
        "QUOTA",
        "Error: quota exhausted",
    );
}

#[tokio::test]
async fn a_failing_approver_a_panicking_guard_and_a_failing_layer_are_hook_failed() {
    let asks = registry_with([ok_tool("t")]);
    let _ask = asks.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("check".to_owned()),
        })
    });
    let _ = asks.set_approver(approver_fn(|_| async { Err(ToolError::new("no UI")) }));
    expect(
        &asks.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: no UI",
    );

    let guarded = registry_with([ok_tool("t")]);
    let _guard = guarded.guard(|_| panic!("guard bug"));
    expect(
        &guarded.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: guard panicked: guard bug",
    );

    let wrapped = registry_with([ok_tool("t")]);
    let _layer = wrapped.on_execute(|_, _| async { Err(ToolError::new("metrics sink gone")) });
    expect(
        &wrapped.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: metrics sink gone",
    );
}

#[tokio::test]
async fn post_execute_failures_and_misuse_are_hook_failed_and_a_block_is_blocked() {
    let registry = registry_with([ok_tool("t")]);
    let hook = registry
        .on_post_execute(|_, _, _| async { Err(ToolError::new("audit down")) })
        .unwrap();
    expect(
        &registry.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: audit down",
    );
    hook.dispose();

    let hook = registry
        .on_post_execute(|_, _, _| async {
            Ok(PostToolDecision::Accept {
                content: Some(vec![ContentBlock::text("x")]),
                value: Some(json!("y")),
                additional_contexts: Vec::new(),
            })
        })
        .unwrap();
    expect(
        &registry.execute(call("t")).await,
        "HookError",
        "HOOK_FAILED",
        "Error: post-execute accept decision cannot replace both value and content",
    );
    hook.dispose();

    let _block = registry.on_post_execute(|_, _, _| async {
        Ok(PostToolDecision::block(vec![ContentBlock::text(
            "Do not read secrets.",
        )]))
    });
    expect(
        &registry.execute(call("t")).await,
        "ToolBlockedError",
        "BLOCKED",
        "Do not read secrets.",
    );
}

#[tokio::test]
async fn a_failing_or_panicking_finalizer_is_finalizer_failed() {
    let registry = registry_with([
        FnTool::builder("fails", "")
            .finalize(|_, _| Err(ToolError::new("redaction failed")))
            .handler(|_, _| async { Ok("ok") }),
        FnTool::builder("panics", "")
            .finalize(|_, _| panic!("redactor bug"))
            .handler(|_, _| async { Ok("ok") }),
    ]);
    expect(
        &registry.execute(call("fails")).await,
        "ToolFinalizerError",
        "FINALIZER_FAILED",
        "Error: redaction failed",
    );
    expect(
        &registry.execute(call("panics")).await,
        "ToolFinalizerError",
        "FINALIZER_FAILED",
        "Error: tool \"panics\" content finalizer panicked: redactor bug",
    );
}

#[tokio::test]
async fn a_registry_without_hooks_codes_every_failure_too() {
    // The short path: no hook applies.
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("t", "").handler(|_, _| async { Err::<(), _>(ToolError::new("no")) }),
        )
        .unwrap();
    assert_eq!(only_text(&registry.execute(call("t")).await), "Error: no");
    assert_eq!(
        registry.execute(call("t")).await.error_code(),
        Some(ErrorCode::ToolError.as_str())
    );
}
