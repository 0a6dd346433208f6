//! What each construct means after translation, and how refusals read. (The workspace's
//! `tests/tests/it/schema/pattern.rs` also compares every construct with JavaScript's `RegExp`.)

use crate::{PatternErrorKind, compile};

fn matches(pattern: &str, text: &str) -> bool {
    compile(pattern)
        .unwrap_or_else(|error| panic!("{pattern:?} should compile: {error}"))
        .is_match(text)
}

fn refused(pattern: &str) -> (PatternErrorKind, String) {
    match compile(pattern) {
        Ok(regex) => panic!("{pattern:?} should be refused, got {regex}"),
        Err(error) => (error.kind(), error.to_string()),
    }
}

#[test]
fn class_escapes_are_ascii_or_ecma_sets() {
    assert!(matches(r"^\d+$", "0123456789"));
    assert!(!matches(r"^\d+$", "٣٤"));
    assert!(!matches(r"^\w+$", "é"));
    assert!(matches(r"^\w+$", "a_Z9"));
    assert!(matches(r"^\W$", "é"));
    assert!(matches(r"^\D$", "٣"));
    // ECMA-262's \s has the byte order mark and not NEL, unlike Unicode's White_Space.
    assert!(matches(r"^\s$", "\u{FEFF}"));
    assert!(!matches(r"^\s$", "\u{85}"));
    assert!(matches(r"^\s+$", " \t\n\r\u{B}\u{C}\u{A0}\u{2028}\u{3000}"));
    assert!(matches(r"^\S$", "\u{85}"));
}

#[test]
fn word_boundaries_are_ascii() {
    // `é` is not an ECMA-262 word character: there is a boundary between `a` and `é`.
    assert!(matches(r"a\b", "aé"));
    assert!(matches(r"\bé", "aé"));
    assert!(!matches(r"\bé", "é"));
    assert!(!matches(r"é\b", "é"));
    assert!(!matches(r"a\B", "aé"));
    assert!(matches(r"\ba\b", "éaé"));
}

#[test]
fn dot_stops_at_line_terminators_only() {
    assert!(matches(r"^.$", "😀"));
    assert!(matches(r"^.$", "\u{85}"));
    for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        assert!(!matches(r"^.$", terminator), "{terminator:?}");
    }
}

#[test]
fn anchors_are_whole_input() {
    assert!(!matches(r"^b", "a\nb"));
    assert!(!matches(r"a$", "a\n"));
    assert!(matches(r"a$", "ba"));
}

#[test]
fn character_escapes() {
    assert!(matches(r"^\cJ$", "\n"));
    assert!(matches(r"^\ca$", "\u{1}"));
    assert!(matches(r"^\0$", "\0"));
    assert!(matches(r"^\x41$", "A"));
    assert!(matches(r"^\u00e9$", "é"));
    assert!(matches(r"^\uD83D\uDE00$", "😀"));
    assert!(matches(r"^\u{1F600}$", "😀"));
    assert!(matches(r"^\u{0000000041}$", "A"));
    assert!(matches(r"^\/\.\*$", "/.*"));
    assert!(matches(r"^[\b]$", "\u{8}"));
    // A lone surrogate is a character no Rust string holds.
    assert!(!matches(r"\uD800", "\u{FFFD}"));
    assert!(matches(r"^[^\uD800]$", "a"));
}

#[test]
fn classes_follow_ecma() {
    assert!(!matches(r"[]", "a"));
    assert!(matches(r"^[^]$", "\n"));
    assert!(matches(r"^[a&&b]+$", "&ab"));
    assert!(matches(r"^[a~~b]+$", "~"));
    assert!(matches(r"^[[]$", "["));
    assert!(matches(r"^[-a]+$", "-a"));
    assert!(matches(r"^[a-c-e]+$", "b-e"));
    assert!(!matches(r"^[a-c-e]+$", "d"));
    assert!(matches(r"^[\d-]+$", "1-"));
    assert!(matches(r"^[\w\s]+$", "a b"));
    assert!(matches(r"^[^\d]$", "a"));
    assert!(matches(r"^[\D]$", "a"));
    assert!(!matches(r"^[\D]$", "1"));
    assert!(matches(r"^[\uD7FF-\uE000]$", "\u{E000}"));
}

#[test]
fn properties_use_ecma_names() {
    assert!(matches(r"^\p{L}+$", "éa"));
    assert!(matches(r"^\p{Lu}$", "É"));
    assert!(matches(r"^\p{General_Category=Decimal_Number}$", "٣"));
    assert!(matches(r"^\p{Script=Greek}$", "α"));
    assert!(matches(r"^\p{sc=Grek}$", "α"));
    assert!(matches(r"^\p{scx=Latn}$", "a"));
    assert!(matches(r"^\P{L}$", "1"));
    assert!(matches(r"^[\p{N}x]+$", "٣x"));
    assert!(matches(r"^\p{White_Space}$", "\u{85}"));
    assert!(matches(r"^\p{ASCII}$", "a"));
    assert!(!matches(r"\p{Cs}", "a"));
    assert!(matches(r"^\P{Cs}$", "a"));
    let (kind, message) = refused(r"\p{greek}");
    assert_eq!(kind, PatternErrorKind::Invalid);
    assert!(message.contains("case-sensitive"), "{message}");
    assert_eq!(
        refused(r"\p{Script=Unknown}").0,
        PatternErrorKind::Unsupported
    );
    assert_eq!(refused(r"\p{L").0, PatternErrorKind::Invalid);
    assert_eq!(refused(r"\pL").0, PatternErrorKind::Invalid);
}

#[test]
fn groups_and_quantifiers() {
    assert!(matches(r"^(ab)+$", "abab"));
    assert!(matches(r"^(?:ab){2}$", "abab"));
    assert!(matches(r"^(?<word>ab){1,}$", "ab"));
    assert!(matches(r"^a{0,2}?$", "aa"));
    assert!(matches(r"^a{002}$", "aa"));
    assert!(matches(r"^(a|)$", ""));
    assert!(matches("", "anything"));
}

#[test]
fn look_around_and_backreferences_are_unsupported() {
    for (pattern, construct) in [
        ("a(?=b)", "the look-ahead \"(?=\" at offset 1"),
        ("a(?!b)", "the negative look-ahead \"(?!\" at offset 1"),
        ("(?<=a)b", "the look-behind \"(?<=\" at offset 0"),
        ("(?<!a)b", "the negative look-behind \"(?<!\" at offset 0"),
        (r"(a)\1", "the backreference \"\\1\" at offset 3"),
        (
            r"(?<x>a)\k<x>",
            "the named backreference \"\\k<x>\" at offset 7",
        ),
    ] {
        let (kind, message) = refused(pattern);
        assert_eq!(kind, PatternErrorKind::Unsupported, "{pattern}");
        assert!(
            message.starts_with(&format!("{construct} is not supported")),
            "{pattern}: {message}"
        );
    }
}

#[test]
fn rust_only_syntax_is_invalid_and_says_why() {
    for (pattern, fragment) in [
        ("(?i)abc", "inline flags"),
        ("(?P<n>a)", "(?<name>…)"),
        (r"\Aabc", "write ^"),
        (r"abc\z", "write $"),
        (r"\Qa.b\E", "quoting"),
        (r"\h", "horizontal space"),
        ("[[:alpha:]]", "POSIX class"),
        (r"\-", "only inside a class"),
        (r"\_", "only syntax characters and / may be escaped"),
        ("a{,2}", "incomplete quantifier"),
        ("{2}", "nothing to repeat"),
        ("a]", "lone \"]\""),
        ("a}", "lone \"}\""),
        ("*a", "nothing to repeat"),
        ("^*", "cannot be repeated"),
        (r"\b+", "cannot be repeated"),
        ("a{2,1}", "out of order"),
        ("[z-a]", "out of order"),
        (r"[\d-z]", "cannot end a range"),
        ("(a", "never closed"),
        ("[a", "never closed"),
        ("a)", "unmatched"),
        (r"\1", "no such group"),
        (r"\k<x>", "must name a group"),
        (r"\01", "octal"),
        (r"\c1", "control escape"),
        (r"\x4", "two hex digits"),
        (r"\u12", "four hex digits"),
        (r"\u{110000}", "up to 10FFFF"),
        ("(?<a>x)(?<a>y)", "another group has it"),
        ("a\\", "ends the pattern"),
    ] {
        let (kind, message) = refused(pattern);
        assert_eq!(kind, PatternErrorKind::Invalid, "{pattern}: {message}");
        assert!(message.contains(fragment), "{pattern}: {message}");
    }
}

#[test]
fn hostile_patterns_are_refused_not_overflowing() {
    let deep = "(".repeat(100_000);
    assert_eq!(refused(&deep).0, PatternErrorKind::Unsupported);
    let (kind, message) = refused(r"\p{L}{1000}");
    assert_eq!(kind, PatternErrorKind::Unsupported);
    assert!(message.contains("limit"), "{message}");
    assert_eq!(refused("a{99999999999}").0, PatternErrorKind::Unsupported);
}
