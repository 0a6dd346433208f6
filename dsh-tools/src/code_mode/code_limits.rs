//! [`CodeLimits`]: what one `run_code` program may take — memory, stack, time, source, output,
//! nested calls — as plain fields with their defaults, and the bounds each is held to when a
//! program runs.

/// The bounds of one `run_code` program. A program that reaches one ends with `CODE_RUN_FAILED`
/// naming it (the wall time with `TOOL_TIMEOUT`); nested calls already made stay made.
///
/// Set the fields that differ from the defaults:
///
/// ```
/// use dsh_tools::code_mode::CodeLimits;
/// let limits = CodeLimits {
///     wall_time_ms: 10_000,
///     max_nested_calls: 50,
///     ..CodeLimits::default()
/// };
/// assert_eq!(limits.max_in_flight, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeLimits {
    /// The engine's heap, in bytes (default 64 MiB; at least 1 MiB is used).
    pub memory_bytes: usize,
    /// The program's stack, in bytes (default 1 MiB; held between 64 KiB and 64 MiB).
    pub stack_bytes: usize,
    /// How long a program may run, nested calls included, in milliseconds (default 30 s; at
    /// least 1).
    pub wall_time_ms: u64,
    /// The longest program accepted, in bytes of source (default 100 KB).
    pub max_source_bytes: usize,
    /// How much a program may print (`console.log`), in bytes (default 64 KiB).
    pub max_output_bytes: usize,
    /// How many nested calls one program may make (default 1,000).
    pub max_nested_calls: usize,
    /// How many concurrency-safe nested calls run at once (default 8; at least 1).
    pub max_in_flight: usize,
}

impl Default for CodeLimits {
    fn default() -> Self {
        Self::new()
    }
}

// The engine reads the limits through these, so a field set out of its range is held to it
// where it is used (a zero stack or wall time would stop every program before it starts).
impl CodeLimits {
    /// The defaults, in a `const` context.
    pub(crate) const fn new() -> Self {
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

    /// The engine's heap, in bytes: at least 1 MiB.
    pub(crate) const fn memory_bytes(&self) -> usize {
        if self.memory_bytes < (1 << 20) {
            1 << 20
        } else {
            self.memory_bytes
        }
    }

    /// The program's stack, in bytes: at least 64 KiB, at most 64 MiB.
    pub(crate) const fn stack_bytes(&self) -> usize {
        if self.stack_bytes < (64 << 10) {
            64 << 10
        } else if self.stack_bytes > (64 << 20) {
            64 << 20
        } else {
            self.stack_bytes
        }
    }

    /// How long a program may run, in milliseconds: at least 1.
    pub(crate) const fn wall_time_ms(&self) -> u64 {
        if self.wall_time_ms == 0 {
            1
        } else {
            self.wall_time_ms
        }
    }

    /// The longest program accepted, in bytes.
    pub(crate) const fn max_source_bytes(&self) -> usize {
        self.max_source_bytes
    }

    /// How much a program may print, in bytes.
    pub(crate) const fn max_output_bytes(&self) -> usize {
        self.max_output_bytes
    }

    /// How many nested calls one program may make.
    pub(crate) const fn max_nested_calls(&self) -> usize {
        self.max_nested_calls
    }

    /// How many concurrency-safe nested calls run at once: at least 1.
    pub(crate) const fn max_in_flight(&self) -> usize {
        if self.max_in_flight == 0 {
            1
        } else {
            self.max_in_flight
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CodeLimits;

    #[test]
    fn a_field_out_of_range_is_held_to_its_bound_where_it_is_read() {
        let limits = CodeLimits {
            memory_bytes: 10,
            stack_bytes: usize::MAX,
            wall_time_ms: 0,
            max_in_flight: 0,
            ..CodeLimits::default()
        };
        assert_eq!(limits.memory_bytes(), 1 << 20);
        assert_eq!(limits.stack_bytes(), 64 << 20);
        assert_eq!(limits.wall_time_ms(), 1);
        assert_eq!(limits.max_in_flight(), 1);
        let small_stack = CodeLimits {
            stack_bytes: 1,
            ..CodeLimits::default()
        };
        assert_eq!(small_stack.stack_bytes(), 64 << 10);
    }
}
