//! The runtime's examples, run as README says (each builds the example with `cargo`).

/// The provider loop example with recorded streams.
mod agent_loop;
/// The Code Mode example: one program against one call per turn.
mod code_mode;
/// The call store example: a crashed turn resumed from a SQLite file.
mod durable;
/// The quickstart: what it prints is what README says it prints.
mod quickstart;
