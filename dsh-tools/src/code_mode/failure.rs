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
    /// The program's calls stopped it ([`ProgramCalls::halted`]): they say why.
    ///
    /// [`ProgramCalls::halted`]: crate::code_mode::program_calls::ProgramCalls::halted
    Halted,
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

/// Where the program calls `tool`, when it does so in exactly one place (`tools.name(`,
/// `tools["name"](`): the position an uncaught failure of that call is reported at. The failure
/// itself carries none (the engine made it, not the program), and with several call sites the
/// tool's name alone says which call failed.
pub(crate) fn call_site(program: &str, tool: &str) -> Option<(u32, u32)> {
    let name = regex::escape(tool);
    let pattern = format!(
        r#"\btools\s*(\??\.\s*{name}\b|\[\s*"{name}"\s*\]|\[\s*'{name}'\s*\]|\[\s*`{name}`\s*\])"#
    );
    let pattern = Regex::new(&pattern).ok()?;
    let mut sites = pattern.find_iter(program);
    let site = sites.next()?;
    if sites.next().is_some() {
        return None;
    }
    let before = &program[..site.start()];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = program[line_start..site.start()].chars().count() + 1;
    Some((u32::try_from(line).ok()?, u32::try_from(column).ok()?))
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
        r"|([A-Za-z_$][\w$]*<\s*(string|number|boolean|any|unknown|[A-Z][\w$]*)(\[\])?",
        r"(\s*,\s*(string|number|boolean|any|unknown|[A-Z][\w$]*)(\[\])?)*\s*>\()",
    ))
    .unwrap_or_else(|error| panic!("the TypeScript pattern is valid: {error}"))
});

/// Whether a program that failed to parse at `error` (line and column, from 1) is TypeScript
/// rather than broken JavaScript: a TypeScript construct is where the parser stopped. An
/// object literal can look like an annotation (`{total: Math.floor(n)}`), so a construct
/// elsewhere in the program does not count; without a position, any does.
pub(crate) fn looks_like_typescript(program: &str, error: Option<(u32, u32)>) -> bool {
    let Some(at) = error.and_then(|(line, column)| byte_offset(program, line, column)) else {
        return TYPESCRIPT.is_match(program);
    };
    // The parser stops on the construct or just after it (`Map<T>(` stops at the `)`).
    const AFTER: usize = 3;
    TYPESCRIPT
        .find_iter(program)
        .take_while(|found| found.start() <= at)
        .any(|found| at <= found.end() + AFTER)
}

/// The byte offset of `line` and `column` (from 1, the column in characters) in `program`.
fn byte_offset(program: &str, line: u32, column: u32) -> Option<usize> {
    let start = if line <= 1 {
        0
    } else {
        program
            .match_indices('\n')
            .nth(line as usize - 2)
            .map(|(newline, _)| newline + 1)?
    };
    let rest = &program[start..];
    let within = rest
        .char_indices()
        .nth(column.saturating_sub(1) as usize)
        .map_or(rest.len(), |(offset, _)| offset);
    Some(start + within)
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
            "const m = new Map<string, number[]>();",
        ] {
            assert!(looks_like_typescript(typescript, None), "{typescript}");
        }
        for javascript in [
            "const files = [];",
            "const o = { path: 'a', mode: 'b' };",
            "const x = cond ? a : b;",
            "switch (x) { case 1: break; default: y(); }",
            "for (const f of files) { console.log(f) }",
            "label: for (;;) { break label; }",
            "if (a < b && c > (d)) {}",
        ] {
            assert!(!looks_like_typescript(javascript, None), "{javascript}");
        }
    }

    #[test]
    fn only_a_construct_where_the_parser_stopped_counts() {
        // An object literal that looks like an annotation, and a syntax error elsewhere.
        let program =
            "const n = 3;\nconst o = {count: n, total: Math.floor(n / 2)};\nreturn o.total +;";
        assert!(looks_like_typescript(program, None));
        assert!(!looks_like_typescript(program, Some((3, 17))));
        // Where a parser stops on TypeScript: on the annotation, or just after a generic call.
        assert!(looks_like_typescript(
            "const a = 1;\nconst files: string[] = [];",
            Some((2, 12))
        ));
        assert!(looks_like_typescript(
            "const m = new Map<String>();",
            Some((1, 27))
        ));
        assert!(!looks_like_typescript(
            "const files: string[] = [];\nfoo(;",
            Some((2, 5))
        ));
    }

    #[test]
    fn a_tools_one_call_site_is_found() {
        let program = "const a = await tools.add({a: 1});\n  const c = await tools[\"disk\"]({});";
        assert_eq!(call_site(program, "disk"), Some((2, 19)));
        assert_eq!(call_site(program, "add"), Some((1, 17)));
        // Several sites, a prefix of another name, none: no position.
        assert_eq!(call_site("tools.add(1); tools.add(2);", "add"), None);
        assert_eq!(call_site("tools.adder(1);", "add"), None);
        assert_eq!(call_site("mytools.add(1);", "add"), None);
        assert_eq!(call_site("tools['a.b']()", "a.b"), Some((1, 1)));
    }

    #[test]
    fn positions_become_byte_offsets() {
        assert_eq!(byte_offset("ab\ncdé\nx", 2, 3), Some(5));
        assert_eq!(byte_offset("ab\ncdé\nx", 3, 1), Some(8));
        assert_eq!(byte_offset("ab", 1, 9), Some(2));
        assert_eq!(byte_offset("ab", 2, 1), None);
    }
}
