//! `pattern` against the real thing: every construct of ECMA-262 regular expressions, written on
//! its own and in generated combinations, is run by JavaScript's `RegExp` with the `u` flag
//! (Node.js, as the oracle) and by the engine's translation on the same strings:
//! - what `RegExp` refuses, the engine refuses;
//! - what `RegExp` accepts, the engine either matches exactly alike on every string, or refuses
//!   as unsupported (look-around and backreferences, which the regex crate cannot run), never as
//!   invalid;
//! - schemas built, imported and derived all go through the same translation.
//!
//! Node.js must be on `PATH`: without it this test fails and says so (it never skips).

use std::io::Write;
use std::process::{Command, Stdio};

use dsh_tools::schema::{PatternErrorKind, Schema};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};

/// Runs every pattern with `new RegExp(pattern, "u")` on every string: per pattern, the list of
/// `test` results, or the message it threw.
fn ecma_verdicts(patterns: &[String], strings: &[&str]) -> Vec<Result<Vec<bool>, String>> {
    const SCRIPT: &str = r#"
        let input = "";
        process.stdin.setEncoding("utf8");
        process.stdin.on("data", (chunk) => { input += chunk; });
        process.stdin.on("end", () => {
            const { patterns, strings } = JSON.parse(input);
            const verdicts = patterns.map((pattern) => {
                let regex;
                try { regex = new RegExp(pattern, "u"); }
                catch (error) { return { error: String(error.message) }; }
                return { matches: strings.map((text) => regex.test(text)) };
            });
            process.stdout.write(JSON.stringify(verdicts));
        });
    "#;
    let mut child = match Command::new("node")
        .arg("-e")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!(
            "this test needs Node.js (`node` on PATH) to run patterns with JavaScript's RegExp, \
             the ECMA-262 oracle; starting `node` failed: {error}"
        ),
    };
    let input = json!({"patterns": patterns, "strings": strings}).to_string();
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("node reads the cases");
    let output = child.wait_with_output().expect("node runs");
    assert!(output.status.success(), "node failed: {}", output.status);
    let verdicts: Vec<Value> = serde_json::from_slice(&output.stdout).expect("node answers JSON");
    verdicts
        .into_iter()
        .map(|verdict| match verdict.get("matches") {
            Some(Value::Array(matches)) => Ok(matches.iter().map(|m| m == &json!(true)).collect()),
            _ => Err(verdict["error"].as_str().unwrap_or_default().to_owned()),
        })
        .collect()
}

/// Strings that tell the dialects apart: ASCII and non-ASCII digits, letters and word
/// characters, every kind of whitespace and line terminator, class syntax characters.
const PROBES: &[&str] = &[
    "",
    "a",
    "b",
    "c",
    "A",
    "Z",
    "z",
    "_",
    "0",
    "9",
    "٣",
    "٣٤",
    "é",
    "É",
    "ß",
    "α",
    "Ω",
    "😀",
    "ab",
    "abab",
    "aab",
    "ba",
    "a b",
    "a\nb",
    "a\rb",
    "aé",
    "éa",
    "a1_",
    "1-",
    "x-y",
    "a.b",
    "aa",
    "aaa",
    "ABC",
    "tmp",
    "temp",
    "foo.rs",
    " ",
    "\t",
    "\n",
    "\r",
    "\u{b}",
    "\u{c}",
    "\u{85}",
    "\u{a0}",
    "\u{1680}",
    "\u{180e}",
    "\u{2000}",
    "\u{200a}",
    "\u{200b}",
    "\u{2028}",
    "\u{2029}",
    "\u{202f}",
    "\u{205f}",
    "\u{3000}",
    "\u{feff}",
    "\0",
    "\u{1}",
    "\u{8}",
    "\u{1f}",
    "[",
    "]",
    ":",
    "-",
    "&",
    "~",
    "^",
    "$",
    "\\",
    "/",
    "{",
    "}",
    "(",
    ")",
    "|",
    "*",
    "[:alpha:]",
    "alpha",
    "&&",
    "--",
    "~~",
    "\u{e000}",
    "\u{d7ff}",
    "\u{fffd}",
    "A\u{300}",
];

/// One pattern per construct (and per Rust-only spelling), valid ECMA-262 or not.
const CONSTRUCTS: &[&str] = &[
    // class escapes
    r"^\d+$",
    r"\D",
    r"^\w+$",
    r"\W",
    r"^\s$",
    r"\S",
    r"^\s+$",
    r"[\s\S]",
    r"[^\s]",
    // assertions
    r"\b",
    r"\B",
    r"a\b",
    r"\ba",
    r"é\b",
    r"\bé",
    r"^a",
    r"a$",
    r"^$",
    r"^b",
    r"a$|^b",
    // the dot
    r"^.$",
    r"a.b",
    r"^.+$",
    r"^..$",
    // character escapes
    r"\cJ",
    r"\cj",
    r"\c1",
    r"\c",
    r"\0",
    r"\00",
    r"\01",
    r"\x41",
    r"\x4",
    r"\x",
    r"\u0041",
    r"\u00e9",
    r"\u{41}",
    r"\u{1F600}",
    r"\u{0000041}",
    r"\u{110000}",
    r"\u{}",
    r"\uD83D\uDE00",
    r"\uD83D",
    r"\uDE00",
    r"^[\uD800-\uDFFF]$",
    r"[\uD7FF-\uE000]",
    r"\t",
    r"\n",
    r"\r",
    r"\v",
    r"\f",
    r"\/",
    r"\.",
    r"\*",
    r"\^",
    r"\$",
    r"\[",
    r"\]",
    r"\{",
    r"\}",
    r"\(",
    r"\)",
    r"\|",
    r"\\",
    r"\-",
    r"\_",
    r"\a",
    r"\e",
    r"\:",
    r"\ ",
    // properties
    r"\p{L}",
    r"\p{Lu}",
    r"\P{L}",
    r"\p{Letter}",
    r"\p{letter}",
    r"\p{gc=Nd}",
    r"\p{General_Category=Decimal_Number}",
    r"\p{Nd}",
    r"\p{digit}",
    r"\p{punct}",
    r"\p{Cs}",
    r"\P{Cs}",
    r"\p{Script=Greek}",
    r"\p{sc=Grek}",
    r"\p{scx=Latn}",
    r"\p{Script=greek}",
    r"\p{Script_Extensions=Latin}",
    r"\p{White_Space}",
    r"\p{space}",
    r"\p{ASCII}",
    r"\p{Any}",
    r"\p{Assigned}",
    r"\p{Alphabetic}",
    r"\p{Emoji}",
    r"\p{L&}",
    r"\p{Greek}",
    r"\pL",
    r"\p{L",
    r"\p{Lowercase=Yes}",
    r"[\p{L}\d]",
    r"[^\p{L}]",
    r"[\P{Nd}]",
    // classes
    r"[]",
    r"[^]",
    r"^[^]$",
    r"[a-c]",
    r"[^a-c]",
    r"[a-]",
    r"[-a]",
    r"[a-c-e]",
    r"[--a]",
    r"[\d-]",
    r"[\d-z]",
    r"[a-\d]",
    r"[z-a]",
    r"[\b]",
    r"[\B]",
    r"[\-]",
    r"[\1]",
    r"[\0]",
    r"[[]",
    r"[[]]",
    r"[]]",
    r"[a&&b]",
    r"[a--b]",
    r"[a~~b]",
    r"[\w&&\d]",
    r"[[:alpha:]]",
    r"[[:alpha:]",
    r"[[:digit:]x]",
    r"[a",
    r"[\]]",
    r"[\^]",
    r"[^^]",
    r"[\cJ]",
    r"[\x41-\x43]",
    r"[😀]",
    r"[\u{1F600}-\u{1F64F}]",
    r"[.]",
    r"[$]",
    // groups
    r"(a)",
    r"(?:a|b)+",
    r"(?<name>a)",
    r"(?<n>a)(?<n>b)",
    r"(?<1n>a)",
    r"()",
    r"(|a)",
    r"(a",
    r"a)",
    r"(?i)a",
    r"(?i:a)",
    r"(?P<n>a)",
    r"(?#c)",
    r"(?m)^a",
    r"(?s).",
    // look-around and backreferences
    r"a(?=b)",
    r"a(?!b)",
    r"(?<=a)b",
    r"(?<!a)b",
    r"(a)\1",
    r"\1(a)",
    r"\1",
    r"(?<n>a)\k<n>",
    r"\k<n>",
    r"\k",
    r"(a)\2",
    // quantifiers
    r"a*",
    r"a+?",
    r"a?",
    r"a{2}",
    r"a{2,}",
    r"a{0,2}",
    r"a{2,1}",
    r"a{,2}",
    r"a{",
    r"a{x}",
    r"{2}",
    r"*a",
    r"a**",
    r"^*",
    r"$+",
    r"\b*",
    r"a{2}{3}",
    r"a{002}",
    r"a{2,3}?",
    // lone syntax characters
    r"]",
    r"a]",
    r"}",
    r"{",
    r"a|",
    r"|",
    r"\",
    // Rust and PCRE spellings
    r"\A",
    r"\z",
    r"\Z",
    r"\Qa.b\E",
    r"\h",
    r"\H",
    r"\R",
    r"\X",
    r"\G",
    r"\K",
    r"\p{Greek}",
    r"[[:^alpha:]]",
    r"\x{41}",
    r"(?u)\w",
];

/// Compares the engine with `RegExp` on `patterns`; panics listing every disagreement.
fn compare(patterns: &[String]) -> (usize, usize, usize) {
    let verdicts = ecma_verdicts(patterns, PROBES);
    let mut disagreements = Vec::new();
    let (mut agreed, mut refused_alike, mut unsupported) = (0, 0, 0);
    for (pattern, verdict) in patterns.iter().zip(verdicts) {
        let ours = dsh_tools::schema::Pattern::new(pattern);
        match (verdict, ours) {
            (Ok(expected), Ok(compiled)) => {
                for (text, expected) in PROBES.iter().zip(expected) {
                    if compiled.is_match(text) != expected {
                        disagreements.push(format!(
                            "{pattern:?} on {text:?}: RegExp says {expected}, we say {}",
                            !expected
                        ));
                    }
                }
                agreed += 1;
            }
            (Ok(_), Err(error)) if error.kind() == PatternErrorKind::Unsupported => {
                unsupported += 1;
            }
            (Ok(_), Err(error)) => disagreements.push(format!(
                "{pattern:?}: RegExp accepts it, we call it invalid: {error}"
            )),
            (Err(thrown), Ok(_)) => disagreements.push(format!(
                "{pattern:?}: RegExp refuses it ({thrown}), we accept it"
            )),
            (Err(_), Err(_)) => refused_alike += 1,
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements with ECMA-262:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    (agreed, refused_alike, unsupported)
}

#[test]
fn every_construct_means_what_ecma_262_says() {
    let patterns: Vec<String> = CONSTRUCTS.iter().map(|p| (*p).to_owned()).collect();
    let (agreed, refused, unsupported) = compare(&patterns);
    eprintln!("constructs: {agreed} agree, {refused} refused alike, {unsupported} unsupported");
    // The four look-arounds and three backreferences: valid, and refused by name.
    assert_eq!(unsupported, 7);
}

/// Fragments of patterns: atoms of every kind (some invalid) and quantifiers (some invalid).
fn generated_pattern() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a",
        "b",
        "é",
        "😀",
        ".",
        r"\d",
        r"\D",
        r"\w",
        r"\W",
        r"\s",
        r"\S",
        r"\b",
        r"\B",
        "^",
        "$",
        "[a-c]",
        "[^a-c]",
        "[]",
        "[^]",
        r"[\d-]",
        r"[\w&&\d]",
        "[a--b]",
        "[a~~b]",
        "[[:alpha:]]",
        "[[]",
        r"\cJ",
        r"\c1",
        r"\0",
        r"\01",
        r"\x41",
        r"\u0041",
        r"\u{1F600}",
        r"\uD83D\uDE00",
        r"\uD83D",
        r"\p{L}",
        r"\P{L}",
        r"\p{Lu}",
        r"\p{sc=Latn}",
        r"\p{greek}",
        r"\p{Nd}",
        "(a)",
        "(?:a|b)",
        "(?<n>a)",
        "(?=a)",
        "(?!a)",
        "(?<=a)",
        r"\1",
        r"\k<n>",
        "(?i)",
        r"\A",
        r"\z",
        r"\-",
        r"\/",
        r"\.",
        "{",
        "}",
        "]",
        "|",
        r"\t",
        r"\n",
        r"[\b]",
        "[:]",
        "-",
        "&",
        "~",
        " ",
        "_",
        "0",
    ]);
    let quantifiers = prop::sample::select(vec![
        "", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{2,1}", "*?", "{,2}", "{",
    ]);
    let piece = (atoms, quantifiers).prop_map(|(atom, quantifier)| format!("{atom}{quantifier}"));
    (
        prop::collection::vec(piece, 1..5),
        0u8..4,
        prop::sample::select(vec!["", "^", "(?:", "["]),
    )
        .prop_map(|(pieces, shape, prefix)| {
            let body = pieces.concat();
            match shape {
                0 => format!("^{body}$"),
                1 => format!("({body})|{body}"),
                2 if prefix == "(?:" => format!("(?:{body})+"),
                2 if prefix == "[" => format!("[{body}]"),
                _ => format!("{prefix}{body}"),
            }
        })
}

#[test]
fn generated_patterns_mean_what_ecma_262_says() {
    let mut runner = TestRunner::deterministic();
    let strategy = generated_pattern();
    let count = dsh_tools_tests::json_values::cases().max(500) as usize * 2;
    let patterns: Vec<String> = (0..count)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("patterns generate")
                .current()
        })
        .collect();
    let (agreed, refused, unsupported) = compare(&patterns);
    eprintln!(
        "generated: {count} patterns, {agreed} agree on every probe, {refused} refused alike, {unsupported} unsupported"
    );
    assert!(
        agreed * 5 >= count && refused * 10 >= count,
        "both kinds must be exercised"
    );
}

#[test]
fn built_imported_and_derived_patterns_are_ecma_262() {
    // The builder and the importer both translate.
    let built = Schema::string().pattern(r"^\d+$").unwrap().build();
    assert!(built.is_valid(&json!("42")) && !built.is_valid(&json!("٣٤")));
    let imported =
        Schema::from_json_schema(&json!({"type": "string", "pattern": r"^\w+$"})).unwrap();
    assert!(imported.is_valid(&json!("abc")) && !imported.is_valid(&json!("é")));
    assert_eq!(imported.to_json_schema()["pattern"], json!(r"^\w+$"));
    let refused = Schema::string().pattern("(?<=a)b").unwrap_err();
    assert_eq!(
        refused.to_string(),
        "unsupported JSON schema: pattern \"(?<=a)b\": the look-behind \"(?<=\" at offset 0 is \
         not supported (the regex engine has no look-around)"
    );
    // The derive compiles its pattern the same way (a refused one is a compile error).
    #[derive(dsh_tools::ToolArgs)]
    #[allow(dead_code)]
    struct Digits {
        #[arg(pattern = r"^\d+$")]
        code: String,
    }
    use dsh_tools::ToolArgs;
    assert!(Digits::is_valid_json(&json!({"code": "123"})));
    assert!(!Digits::is_valid_json(&json!({"code": "٣٤"})));
    assert!(!Digits::schema().unwrap().is_valid(&json!({"code": "٣٤"})));
}
