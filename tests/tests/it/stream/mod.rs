//! Responses read while they stream.

/// Calls started while the response streams (`BatchFeed`).
mod batch;
/// Cards while the model is still writing a call.
mod cards;
/// Definite violations of arguments still being streamed.
mod definite;
/// Follow-up requests rebuilt from a streamed turn, opaque fields included.
mod follow_ups;
/// The partial JSON reader, fed in fragments cut anywhere.
mod partial_json;
/// Stream readers of every dialect against recorded event sequences.
mod readers;
