//! Why a program stopped, in words the model can act on: the reason, where in the program
//! (line and column of the program as written), and what it printed before.
//!
//! Models shown TypeScript declarations often write TypeScript. The engine runs JavaScript, so
//! such a program fails to parse; its text then says that it is TypeScript and what to remove,
//! rather than leaving the model to guess from `expecting ';'`.

use std::sync::LazyLock;

use regex::Regex;

/// How a program ended without finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StopKind {
    /// A syntax error, an uncaught exception, a value that is not JSON: the program's fault.
    Program,
    /// A limit of [`CodeLimits`](crate::code_mode::CodeLimits) other than the wall time.
    Limit,
    /// The wall time ran out.
    TimedOut,
    /// The call was cancelled.
    Cancelled,
}

/// A program that did not finish.
#[derive(Clone, Debug)]
pub(crate) struct ProgramFailure {
    pub(crate) kind: StopKind,
    pub(crate) reason: String,
    /// Line and column in the program as the model wrote it, from 1.
    pub(crate) position: Option<(u32, u32)>,
}

impl ProgramFailure {
    pub(crate) fn program(reason: impl Into<String>, position: Option<(u32, u32)>) -> Self {
        Self {
            kind: StopKind::Program,
            reason: reason.into(),
            position,
        }
    }

    pub(crate) fn limit(reason: impl Into<String>) -> Self {
        Self {
            kind: StopKind::Limit,
            reason: reason.into(),
            position: None,
        }
    }

    pub(crate) fn stopped(kind: StopKind) -> Self {
        let reason = match kind {
            StopKind::TimedOut => "the program ran out of time",
            StopKind::Cancelled => "the program was cancelled",
            _ => "the program stopped",
        };
        Self {
            kind,
            reason: reason.to_owned(),
            position: None,
        }
    }

    /// `<reason> at <line>:<col>`, then the output captured so far.
    pub(crate) fn message(&self, output: &str) -> String {
        let mut message = self.reason.clone();
        if let Some((line, column)) = self.position {
            message.push_str(&format!(" at {line}:{column}"));
        }
        if !output.is_empty() {
            message.push_str("\nOutput before the failure:\n");
            message.push_str(output.trim_end_matches('\n'));
        }
        message
    }
}

/// The first `file:line:column` of an exception's stack that is in the program, as the model
/// wrote it (`first_line` is where the program starts in the evaluated source).
pub(crate) fn position_in(stack: &str, file: &str, first_line: u32) -> Option<(u32, u32)> {
    stack.lines().find_map(|frame| {
        let at = frame.find(file)?;
        let mut numbers = frame[at + file.len()..]
            .trim_start_matches(':')
            .split(|c: char| !c.is_ascii_digit())
            .filter(|part| !part.is_empty());
        let line: u32 = numbers.next()?.parse().ok()?;
        let column: u32 = numbers.next()?.parse().ok()?;
        Some((
            line.checked_sub(first_line - 1).filter(|line| *line > 0)?,
            column,
        ))
    })
}

/// What TypeScript adds to JavaScript, as a model writes it: annotations of parameters and
/// variables, `interface` and `type` declarations, `as` casts, generic calls, non-null
/// assertions before a member.
static TYPESCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?m)(^\s*(export\s+)?(interface|type)\s+[A-Za-z_$][\w$]*\s*(<[^>]*>)?\s*[={])",
        r"|(\b(const|let|var)\s+[A-Za-z_$][\w$]*\s*:\s*[A-Za-z_${\[(])",
        r"|([(,]\s*[A-Za-z_$][\w$]*\??\s*:\s*(string|number|boolean|any|unknown|object|[A-Z][\w$]*)\b)",
        r"|(\)\s*:\s*(Promise<|string|number|boolean|void|any|unknown|[A-Z][\w$]*)\s*(=>|\{))",
        r"|(\bas\s+(const|string|number|boolean|any|unknown|[A-Z][\w$]*)\b)",
        r"|([A-Za-z_$][\w$]*<[A-Z][\w$]*(\[\])?>\()",
    ))
    .unwrap_or_else(|error| panic!("the TypeScript pattern is valid: {error}"))
});

/// Whether a program that failed to parse is TypeScript rather than broken JavaScript.
pub(crate) fn looks_like_typescript(program: &str) -> bool {
    TYPESCRIPT.is_match(program)
}

/// The reason a syntax error of a TypeScript program is reported with.
pub(crate) fn typescript_reason(syntax: &str) -> String {
    format!(
        "{syntax}: this program is TypeScript, but run_code runs JavaScript — remove the type \
         annotations (`: Type`, `as Type`, `<Type>`, `interface`, `type`) and run it again"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_the_programs_own() {
        let stack = "    at <anonymous> (program.js:4:9)\n    at program.js:7:1\n";
        assert_eq!(position_in(stack, "program.js", 2), Some((3, 9)));
        assert_eq!(
            position_in("    at program.js:1:5", "program.js", 1),
            Some((1, 5))
        );
        assert_eq!(position_in("    at native", "program.js", 2), None);
    }

    #[test]
    fn typescript_is_told_from_javascript() {
        for typescript in [
            "const files: string[] = [];",
            "async function read(path: string) { return path }",
            "interface Hit { path: string }\nconst a = 1;",
            "type Mode = 'a' | 'b';",
            "const hits = (await tools.search({query: 'x'})) as SearchOutput;",
            "const f = (x: number): number => x;",
            "const m = new Map<String>();",
        ] {
            assert!(looks_like_typescript(typescript), "{typescript}");
        }
        for javascript in [
            "const files = [];",
            "const o = { path: 'a', mode: 'b' };",
            "const x = cond ? a : b;",
            "switch (x) { case 1: break; default: y(); }",
            "for (const f of files) { console.log(f) }",
            "label: for (;;) { break label; }",
        ] {
            assert!(!looks_like_typescript(javascript), "{javascript}");
        }
    }
}
