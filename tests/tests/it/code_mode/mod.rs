//! Code Mode.

/// The TypeScript declaration of the tools, golden and checked by the TypeScript compiler.
mod declarations;
/// `run_code`: programs whose tool calls are nested calls; scope modes, callers, hostile programs.
mod run_code;
