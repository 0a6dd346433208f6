//! Small future utilities the pipeline needs: the boxed-future alias used by every object-safe
//! async trait here, a panic-catching future (a tool body or hook that panics must end as an
//! error result, never unwind through `execute`), and the `tracing` subscriber a future sees
//! where it is made ([`thread_subscriber`]), to tell whether anyone listens or to carry it to
//! where the future is polled.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// This thread's `tracing` subscriber (its own scoped one, else the global one), or `None` when
/// there is none at all. The global level alone does not tell: a subscriber scoped to another
/// thread raises it.
pub(crate) fn thread_subscriber() -> Option<tracing::Dispatch> {
    tracing::dispatcher::get_default(|dispatch| {
        (!dispatch.is::<tracing::subscriber::NoSubscriber>()).then(|| dispatch.clone())
    })
}

/// A boxed, `Send` future: what the object-safe async traits of this crate return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Polls `inner`, turning a panic during any poll into `Err(message)`.
///
/// Unwind safety is asserted: after a panic the future is never polled again, and the registry's
/// shared state is only ever touched through locks that recover from poisoning.
pub(crate) struct CatchUnwind<F> {
    inner: F,
}

impl<F> CatchUnwind<F> {
    pub(crate) fn new(inner: F) -> Self {
        Self { inner }
    }
}

impl<F> Future for CatchUnwind<F>
where
    F: Future + Unpin,
{
    type Output = Result<F::Output, String>;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.inner;
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// Runs `f`, turning a panic into `Err(message)`.
#[inline]
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(payload.as_ref()))
}

/// The text of a panic payload (`panic!("…")` carries a `&str` or a `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "<non-string panic payload>".to_owned()
    }
}
