//! The errors a provider reports inside its stream (an `error` event or chunk), as a
//! [`ProviderError`].

use serde_json::Value;

use crate::providers::ProviderError;
use crate::providers::calls::field;

/// The error a provider reported in its stream (`{"type", "message"}` or `{"code",
/// "message"}`), as a [`ProviderError`].
pub(super) fn provider_error(error: &Value) -> ProviderError {
    let message = field(error, "message").and_then(Value::as_str);
    let kind = field(error, "type")
        .or_else(|| field(error, "code"))
        .and_then(Value::as_str);
    match (kind, message) {
        (Some(kind), Some(message)) => {
            ProviderError::new(format!("the provider reported an error: {kind}: {message}"))
        }
        (None, Some(message)) => {
            ProviderError::new(format!("the provider reported an error: {message}"))
        }
        _ => ProviderError::new(format!("the provider reported an error: {error}")),
    }
}
