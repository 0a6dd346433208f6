//! The call store and what runs on it: the conformance suite on every backend (memory, a SQLite
//! file, a real PostgreSQL server started here), the contract as a user reads it (`contract.rs`,
//! through the public API on memory and a SQLite file), and the journal across a process killed with
//! SIGKILL in the middle of a body, served MCP tasks on the store (any replica answers, a result
//! outlives a restart), Code Mode runs that resume after an approval, and the proof of it all
//! across processes on PostgreSQL, bodies counted in the database.

mod code_mode_resume;
mod conformance;
mod contract;
mod journal;
mod proof;
mod restart;
mod tasks;
