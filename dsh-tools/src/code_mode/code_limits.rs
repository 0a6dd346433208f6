//! [`CodeLimits`]: what one `run_code` program may take — memory, stack, time, source, output,
//! nested calls — each with a default and a setter.

/// The bounds of one `run_code` program. A program that reaches one ends with `CODE_RUN_FAILED`
/// naming it (the wall time with `TOOL_TIMEOUT`); nested calls already made stay made.
///
/// ```
/// use dsh_tools::code_mode::CodeLimits;
/// let limits = CodeLimits::new().with_wall_time_ms(10_000).with_max_nested_calls(50);
/// assert_eq!(limits.max_in_flight(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeLimits {
    memory_bytes: usize,
    stack_bytes: usize,
    wall_time_ms: u64,
    max_source_bytes: usize,
    max_output_bytes: usize,
    max_nested_calls: usize,
    max_in_flight: usize,
}

impl Default for CodeLimits {
    fn default() -> Self {
        Self::new()
    }
}

impl CodeLimits {
    /// The defaults: 64 MiB of memory, 1 MiB of stack, 30 s of wall time, 100 KB of source,
    /// 64 KiB of captured output, 1,000 nested calls, 8 of them in flight.
    pub const fn new() -> Self {
        Self {
            memory_bytes: 64 << 20,
            stack_bytes: 1 << 20,
            wall_time_ms: 30_000,
            max_source_bytes: 100_000,
            max_output_bytes: 64 << 10,
            max_nested_calls: 1_000,
            max_in_flight: 8,
        }
    }

    /// The engine's heap, in bytes.
    pub const fn memory_bytes(&self) -> usize {
        self.memory_bytes
    }

    /// Sets the engine's heap, in bytes (at least 1 MiB).
    #[must_use]
    pub const fn with_memory_bytes(mut self, bytes: usize) -> Self {
        self.memory_bytes = if bytes < (1 << 20) { 1 << 20 } else { bytes };
        self
    }

    /// The program's stack, in bytes.
    pub const fn stack_bytes(&self) -> usize {
        self.stack_bytes
    }

    /// Sets the program's stack, in bytes (at least 64 KiB, at most 64 MiB).
    #[must_use]
    pub const fn with_stack_bytes(mut self, bytes: usize) -> Self {
        self.stack_bytes = if bytes < (64 << 10) {
            64 << 10
        } else if bytes > (64 << 20) {
            64 << 20
        } else {
            bytes
        };
        self
    }

    /// How long a program may run, nested calls included, in milliseconds.
    pub const fn wall_time_ms(&self) -> u64 {
        self.wall_time_ms
    }

    /// Sets how long a program may run, in milliseconds (at least 1).
    #[must_use]
    pub const fn with_wall_time_ms(mut self, ms: u64) -> Self {
        self.wall_time_ms = if ms == 0 { 1 } else { ms };
        self
    }

    /// The longest program accepted, in bytes of source.
    pub const fn max_source_bytes(&self) -> usize {
        self.max_source_bytes
    }

    /// Sets the longest program accepted, in bytes.
    #[must_use]
    pub const fn with_max_source_bytes(mut self, bytes: usize) -> Self {
        self.max_source_bytes = bytes;
        self
    }

    /// How much a program may print (`console.log`), in bytes.
    pub const fn max_output_bytes(&self) -> usize {
        self.max_output_bytes
    }

    /// Sets how much a program may print, in bytes.
    #[must_use]
    pub const fn with_max_output_bytes(mut self, bytes: usize) -> Self {
        self.max_output_bytes = bytes;
        self
    }

    /// How many nested calls one program may make.
    pub const fn max_nested_calls(&self) -> usize {
        self.max_nested_calls
    }

    /// Sets how many nested calls one program may make.
    #[must_use]
    pub const fn with_max_nested_calls(mut self, calls: usize) -> Self {
        self.max_nested_calls = calls;
        self
    }

    /// How many concurrency-safe nested calls run at once.
    pub const fn max_in_flight(&self) -> usize {
        self.max_in_flight
    }

    /// Sets how many concurrency-safe nested calls run at once (at least 1).
    #[must_use]
    pub const fn with_max_in_flight(mut self, calls: usize) -> Self {
        self.max_in_flight = if calls == 0 { 1 } else { calls };
        self
    }
}
