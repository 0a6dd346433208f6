//! The presentation vocabulary: how a tool wants its call and result shown in a UI.
//!
//! Provider-neutral render intents ("cards"): a generic card, a terminal card for shell-like tools
//! and a diff card for edits. Presenters are pure functions of the arguments (and, for results, of
//! the result), so a UI may call them while streaming and again when replaying a session. Bridges
//! (ACP, a CLI log) turn cards into their own shapes; this module does not know any of them.
//!
//! The vocabulary is `views.rs`; `text.rs` renders cards as plain text ([`TextCards`]) with the
//! line diffs of `diff.rs`; `parts.rs` says what `#[tool]`'s declarative `card_title` and `location`
//! keys take of an argument field ([`TitlePart`], [`LocationPart`]); `icon.rs` is a tool's
//! icon ([`ToolIcon`]). How the cards of a call are
//! made from its definition so that they never fail (what
//! [`ToolScope::present_call`](crate::ToolScope::present_call) and
//! [`ObservedCall::present_call`](crate::hooks::ObservedCall::present_call) show) belongs to
//! the call (`call/cards.rs`).

mod diff;
mod icon;
mod parts;
pub(crate) mod text;
pub(crate) mod views;

pub use self::icon::{IconTheme, ToolIcon};
pub use self::parts::{LocationPart, TitlePart};
pub use self::text::TextCards;
pub use self::views::{
    FileDiff, FileLocation, ResultSummary, ToolCallKind, ToolCallRef, ToolCallView, ToolResultView,
};
