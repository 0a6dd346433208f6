//! The translation: an ECMA-262 pattern (with the `u` flag, no other flag) parsed by its grammar
//! and written out as a regex-crate pattern that matches exactly the same strings.
//!
//! Every atom is written in a form the regex crate cannot read differently: literal ASCII
//! punctuation and control characters as `\x{…}`, character classes as explicit ranges, groups
//! as non-capturing `(?:…)`. What differs between the two dialects is decided here:
//! - `\d`, `\w`, `\b` are ASCII in ECMA-262 (Unicode in the regex crate); `\s` is ECMA-262's own
//!   set (its WhiteSpace and LineTerminator characters);
//! - `.` matches anything but the line terminators `\n`, `\r`, U+2028 and U+2029;
//! - `^` and `$` match only at the ends of the input (no `m` flag);
//! - a class may be empty (`[]` matches nothing, `[^]` anything), and `[`, `&&`, `--`, `~~`
//!   inside one are plain characters;
//! - `\cX`, `\0`, `\xHH`, `\uHHHH` (surrogate pairs joined), `\u{…}`, `\p{…}` with ECMA-262's
//!   exact property names;
//! - the `u` flag's strict grammar: a lone `{`, `}` or `]`, an escape of anything but a syntax
//!   character or `/`, a range between classes, `(?i)` and other Rust/PCRE syntax are errors,
//!   as they are for JavaScript's `new RegExp(p, "u")`.
//!
//! Look-around and backreferences are valid ECMA-262 the regex crate cannot run: they are
//! refused as unsupported, naming the construct.

use crate::error::PatternError;
use crate::properties::{self, Lookup, Property};

/// Groups nest at most this deep (the regex crate stops at 250 levels of its own).
const MAX_NESTING: usize = 200;

/// A class that matches no character.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
/// A class that matches every character.
const ANYTHING: &str = r"[\x{0}-\x{10FFFF}]";
/// The items of a class of every character.
const ANYTHING_ITEMS: &str = r"\x{0}-\x{10FFFF}";
/// ECMA-262's `.`: anything but a line terminator.
const DOT: &str = r"[^\x{A}\x{D}\x{2028}\x{2029}]";
/// `\d`'s items.
const DIGIT: &str = "0-9";
/// `\w`'s items (ASCII: ECMA-262 widens it only under the `i` flag).
const WORD: &str = "0-9A-Z_a-z";
/// `\s`'s items: ECMA-262's WhiteSpace (tab, vertical tab, form feed, space, no-break space,
/// the byte order mark and the Space_Separator characters) and LineTerminator characters.
const SPACE: &str = r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Translates `pattern` into the regex crate's syntax.
pub(crate) fn translate(pattern: &str) -> Result<String, PatternError> {
    let mut translator = Translator::new(pattern);
    translator.disjunction()?;
    match translator.peek() {
        None => Ok(translator.out),
        Some(_) => Err(translator.invalid(translator.pos, "unmatched \")\"")),
    }
}

/// A set of characters an escape stands for.
enum CharSet {
    /// These class items (`0-9`, `\p{gc=Lu}`).
    Items(String),
    /// Every character but these class items (`\D`, `\P{…}`).
    Except(String),
    /// No character at all.
    Nothing,
    /// Every character.
    Everything,
}

impl CharSet {
    /// The set as a standalone atom.
    fn atom(&self) -> String {
        match self {
            Self::Items(items) => format!("[{items}]"),
            Self::Except(items) => format!("[^{items}]"),
            Self::Nothing => NOTHING.to_owned(),
            Self::Everything => ANYTHING.to_owned(),
        }
    }

    /// The set as items inside a class (empty when it adds nothing).
    fn class_items(&self) -> String {
        match self {
            Self::Items(items) => items.clone(),
            Self::Except(items) => format!("[^{items}]"),
            Self::Nothing => String::new(),
            Self::Everything => ANYTHING_ITEMS.to_owned(),
        }
    }
}

/// One side of a class range, or a whole set.
enum ClassAtom {
    Char(u32),
    Set(CharSet),
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    out: String,
    /// Capturing groups in the whole pattern (a backreference may point forward).
    groups: usize,
    /// Names of the named groups in the whole pattern.
    names: Vec<String>,
    nesting: usize,
}

impl Translator {
    fn new(pattern: &str) -> Self {
        let chars: Vec<char> = pattern.chars().collect();
        let (groups, names) = scan_groups(&chars);
        Self {
            out: String::with_capacity(pattern.len() + 8),
            chars,
            pos: 0,
            groups,
            names,
            nesting: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn eat(&mut self, expected: char) -> bool {
        if self.peek() == Some(expected) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// The source from `start` to the current position, for messages.
    fn text_from(&self, start: usize) -> String {
        self.chars[start..self.pos.min(self.chars.len())]
            .iter()
            .collect()
    }

    fn invalid(&self, offset: usize, what: impl AsRef<str>) -> PatternError {
        PatternError::invalid(
            offset,
            format!(
                "{} at offset {offset} is not valid ECMA-262 regular expression syntax",
                what.as_ref()
            ),
        )
    }

    fn invalid_because(&self, offset: usize, what: &str, why: &str) -> PatternError {
        PatternError::invalid(
            offset,
            format!(
                "{what} at offset {offset} is not valid ECMA-262 regular expression syntax ({why})"
            ),
        )
    }

    fn unsupported(&self, offset: usize, what: &str, why: &str) -> PatternError {
        PatternError::unsupported(
            offset,
            format!("{what} at offset {offset} is not supported ({why})"),
        )
    }

    // -----------------------------------------------------------------------------------------
    // Disjunction, Alternative, Term
    // -----------------------------------------------------------------------------------------

    fn disjunction(&mut self) -> Result<(), PatternError> {
        self.alternative()?;
        while self.eat('|') {
            self.out.push('|');
            self.alternative()?;
        }
        Ok(())
    }

    fn alternative(&mut self) -> Result<(), PatternError> {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            self.term()?;
        }
        Ok(())
    }

    fn term(&mut self) -> Result<(), PatternError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(());
        };
        self.pos += 1;
        match c {
            '^' | '$' => {
                self.out.push(c);
                return self.unquantified(start);
            }
            '\\' if matches!(self.peek(), Some('b' | 'B')) => {
                let negated = self.eat('B');
                if !negated {
                    self.pos += 1;
                }
                // ECMA-262's word characters are ASCII: the regex crate's ASCII boundary.
                self.out
                    .push_str(if negated { r"(?-u:\B)" } else { r"(?-u:\b)" });
                return self.unquantified(start);
            }
            '(' => self.group(start)?,
            '[' => self.class(start)?,
            '.' => self.out.push_str(DOT),
            '\\' => self.atom_escape(start)?,
            '*' | '+' | '?' => {
                return Err(self.invalid_because(start, &format!("\"{c}\""), "nothing to repeat"));
            }
            '{' => {
                self.pos = start;
                return Err(if self.read_braces().is_some() {
                    self.invalid_because(start, "\"{\"", "nothing to repeat")
                } else {
                    self.invalid_because(start, "a lone \"{\"", "write \\{ for the character")
                });
            }
            '}' => {
                return Err(self.invalid_because(
                    start,
                    "a lone \"}\"",
                    "write \\} for the character",
                ));
            }
            ']' => return Err(self.lone_bracket(start)),
            c => push_literal(&mut self.out, u32::from(c)),
        }
        self.quantifier()
    }

    /// An assertion takes no quantifier under the `u` flag.
    fn unquantified(&mut self, start: usize) -> Result<(), PatternError> {
        match self.peek() {
            Some('*' | '+' | '?') => Err(self.invalid_because(
                self.pos,
                &format!(
                    "\"{}\" after the assertion \"{}\"",
                    self.chars[self.pos],
                    self.text_from(start)
                ),
                "an assertion cannot be repeated",
            )),
            Some('{') if self.read_braces_at(self.pos).is_some() => Err(self.invalid_because(
                self.pos,
                &format!(
                    "a quantifier after the assertion \"{}\"",
                    self.text_from(start)
                ),
                "an assertion cannot be repeated",
            )),
            _ => Ok(()),
        }
    }

    fn lone_bracket(&self, start: usize) -> PatternError {
        let before: String = self.chars[..start].iter().collect();
        if let Some(open) = before.rfind("[:")
            && before.ends_with(":]")
            && before[open + 2..before.len() - 2]
                .chars()
                .all(|c| c.is_ascii_alphabetic())
        {
            let class = &before[open..];
            return self.invalid_because(
                start,
                "a lone \"]\"",
                &format!(
                    "{class} is a POSIX class, which ECMA-262 does not have: there \"[{class}]\" is \
                     the class \"[{class}\" followed by \"]\"; list the characters instead, e.g. [A-Za-z]"
                ),
            );
        }
        self.invalid_because(start, "a lone \"]\"", "write \\] for the character")
    }

    // -----------------------------------------------------------------------------------------
    // Quantifiers
    // -----------------------------------------------------------------------------------------

    fn quantifier(&mut self) -> Result<(), PatternError> {
        let start = self.pos;
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.pos += 1;
                self.out.push(c);
            }
            Some('{') => {
                let Some((min, max)) = self.read_braces() else {
                    return Err(self.invalid_because(
                        start,
                        "an incomplete quantifier \"{\"",
                        "write \\{ for the character",
                    ));
                };
                let text = self.text_from(start);
                let min_count = self.count(start, &text, &min)?;
                let written = match max {
                    Bound::Exactly => format!("{{{min_count}}}"),
                    Bound::Unbounded => format!("{{{min_count},}}"),
                    Bound::AtMost(digits) => {
                        let max_count = self.count(start, &text, &digits)?;
                        if max_count < min_count {
                            return Err(self.invalid_because(
                                start,
                                &format!("the quantifier \"{text}\""),
                                "numbers out of order",
                            ));
                        }
                        format!("{{{min_count},{max_count}}}")
                    }
                };
                self.out.push_str(&written);
            }
            _ => return Ok(()),
        }
        // Laziness changes which match is found, never whether there is one.
        if self.eat('?') {
            self.out.push('?');
        }
        Ok(())
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the current position, moving past it; `None` (and no
    /// move) when the text there is not one.
    fn read_braces(&mut self) -> Option<(String, Bound)> {
        let (read, end) = self.read_braces_at(self.pos)?;
        self.pos = end;
        Some(read)
    }

    fn read_braces_at(&self, at: usize) -> Option<((String, Bound), usize)> {
        let mut pos = at;
        if self.chars.get(pos) != Some(&'{') {
            return None;
        }
        pos += 1;
        let digits = |pos: &mut usize| {
            let from = *pos;
            while self.chars.get(*pos).is_some_and(char::is_ascii_digit) {
                *pos += 1;
            }
            self.chars[from..*pos].iter().collect::<String>()
        };
        let min = digits(&mut pos);
        if min.is_empty() {
            return None;
        }
        let bound = if self.chars.get(pos) == Some(&',') {
            pos += 1;
            let max = digits(&mut pos);
            if max.is_empty() {
                Bound::Unbounded
            } else {
                Bound::AtMost(max)
            }
        } else {
            Bound::Exactly
        };
        if self.chars.get(pos) != Some(&'}') {
            return None;
        }
        Some(((min, bound), pos + 1))
    }

    /// A repetition count the regex crate can take.
    fn count(&self, start: usize, text: &str, digits: &str) -> Result<u32, PatternError> {
        let trimmed = digits.trim_start_matches('0');
        if trimmed.is_empty() {
            return Ok(0);
        }
        trimmed.parse::<u32>().map_err(|_| {
            self.unsupported(
                start,
                &format!("the quantifier \"{text}\""),
                "the regex engine counts repetitions up to 4294967295",
            )
        })
    }

    // -----------------------------------------------------------------------------------------
    // Groups
    // -----------------------------------------------------------------------------------------

    fn group(&mut self, start: usize) -> Result<(), PatternError> {
        if self.eat('?') {
            match self.peek() {
                Some(':') => self.pos += 1,
                Some('=') => {
                    return Err(self.unsupported(start, "the look-ahead \"(?=\"", NO_LOOK_AROUND));
                }
                Some('!') => {
                    return Err(self.unsupported(
                        start,
                        "the negative look-ahead \"(?!\"",
                        NO_LOOK_AROUND,
                    ));
                }
                Some('<') if self.peek_at(1) == Some('=') => {
                    return Err(self.unsupported(
                        start,
                        "the look-behind \"(?<=\"",
                        NO_LOOK_AROUND,
                    ));
                }
                Some('<') if self.peek_at(1) == Some('!') => {
                    return Err(self.unsupported(
                        start,
                        "the negative look-behind \"(?<!\"",
                        NO_LOOK_AROUND,
                    ));
                }
                Some('<') => {
                    self.pos += 1;
                    self.group_name(start)?;
                }
                other => {
                    let shown: String = std::iter::once('(')
                        .chain(std::iter::once('?'))
                        .chain(other)
                        .collect();
                    let why = match other {
                        Some('i' | 'm' | 's' | 'x' | 'u' | 'U' | '-') => {
                            "inline flags are Rust and PCRE syntax; ECMA-262 patterns take no flags here"
                        }
                        Some('P') => "named groups are written (?<name>…) in ECMA-262",
                        _ => "ECMA-262 groups are (…), (?:…), (?<name>…) and look-arounds",
                    };
                    return Err(self.invalid_because(start, &format!("\"{shown}\""), why));
                }
            }
        }
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.unsupported(
                start,
                "a group",
                &format!("groups nest deeper than {MAX_NESTING} levels"),
            ));
        }
        // Captures mean nothing to a yes/no match; backreferences are refused.
        self.out.push_str("(?:");
        self.disjunction()?;
        if !self.eat(')') {
            return Err(self.invalid_because(start, "the group \"(\"", "it is never closed"));
        }
        self.out.push(')');
        self.nesting -= 1;
        Ok(())
    }

    /// Reads `name>` of `(?<name>`, which must be an identifier no other group has.
    fn group_name(&mut self, start: usize) -> Result<(), PatternError> {
        let name_start = self.pos;
        let name = read_identifier(&self.chars, &mut self.pos);
        if self.peek() == Some('\\') {
            return Err(self.unsupported(
                start,
                "an escape in a group name",
                "write the name's characters as they are",
            ));
        }
        if name.is_empty() || !self.eat('>') {
            return Err(self.invalid_because(
                name_start,
                "a group name",
                "a name is an identifier closed by \">\"",
            ));
        }
        if self.names.iter().filter(|known| **known == name).count() > 1 {
            return Err(self.invalid_because(
                start,
                &format!("the group name \"{name}\""),
                "another group has it",
            ));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Escapes outside classes
    // -----------------------------------------------------------------------------------------

    /// After `\` outside a class (`\b` and `\B` are handled as assertions).
    fn atom_escape(&mut self, start: usize) -> Result<(), PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.invalid_because(start, "\"\\\"", "it ends the pattern"));
        };
        match c {
            '1'..='9' => {
                let digits_start = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
                let digits = self.text_from(digits_start);
                let refers = digits
                    .parse::<usize>()
                    .is_ok_and(|group| group <= self.groups);
                if refers {
                    return Err(self.unsupported(
                        start,
                        &format!("the backreference \"\\{digits}\""),
                        NO_BACKREFERENCES,
                    ));
                }
                Err(self.invalid_because(
                    start,
                    &format!("\"\\{digits}\""),
                    "there is no such group to refer to",
                ))
            }
            'k' => {
                self.pos += 1;
                let name_ok = self.eat('<') && {
                    let name = read_identifier(&self.chars, &mut self.pos);
                    self.eat('>') && self.names.contains(&name)
                };
                if name_ok {
                    return Err(self.unsupported(
                        start,
                        &format!("the named backreference \"{}\"", self.text_from(start)),
                        NO_BACKREFERENCES,
                    ));
                }
                Err(self.invalid_because(start, "\"\\k\"", "it must name a group, as in \\k<name>"))
            }
            _ => {
                match self.class_escape(start, false)? {
                    ClassAtom::Char(code) => push_literal(&mut self.out, code),
                    ClassAtom::Set(set) => self.out.push_str(&set.atom()),
                }
                Ok(())
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Classes
    // -----------------------------------------------------------------------------------------

    fn class(&mut self, start: usize) -> Result<(), PatternError> {
        let negated = self.eat('^');
        let mut items = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(self.invalid_because(
                        start,
                        "the class \"[\"",
                        "it is never closed",
                    ));
                }
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let atom_start = self.pos;
            let first = self.class_atom()?;
            let is_range = self.peek() == Some('-')
                && self.peek_at(1).is_some()
                && self.peek_at(1) != Some(']');
            if !is_range {
                push_class_atom(&mut items, first);
                continue;
            }
            self.pos += 1;
            let second = self.class_atom()?;
            match (first, second) {
                (ClassAtom::Char(low), ClassAtom::Char(high)) => {
                    if low > high {
                        return Err(self.invalid_because(
                            atom_start,
                            &format!("the range \"{}\"", self.text_from(atom_start)),
                            "its ends are out of order",
                        ));
                    }
                    push_range(&mut items, low, high);
                }
                _ => {
                    return Err(self.invalid_because(
                        atom_start,
                        &format!("the range \"{}\"", self.text_from(atom_start)),
                        "a class escape such as \\d cannot end a range",
                    ));
                }
            }
        }
        // `[]` matches nothing and `[^]` anything; the regex crate has no empty class syntax.
        let class = match (items.is_empty(), negated) {
            (true, false) => NOTHING.to_owned(),
            (true, true) => ANYTHING.to_owned(),
            (false, false) => format!("[{items}]"),
            (false, true) => format!("[^{items}]"),
        };
        self.out.push_str(&class);
        Ok(())
    }

    fn class_atom(&mut self) -> Result<ClassAtom, PatternError> {
        let start = self.pos;
        let c = self.chars[self.pos];
        self.pos += 1;
        if c != '\\' {
            // `[`, `&`, `~`, `:` and the rest are plain characters in an ECMA-262 class.
            return Ok(ClassAtom::Char(u32::from(c)));
        }
        match self.peek() {
            Some('b') => {
                self.pos += 1;
                Ok(ClassAtom::Char(0x08))
            }
            Some('-') => {
                self.pos += 1;
                Ok(ClassAtom::Char(u32::from('-')))
            }
            Some('B') => Err(self.invalid_because(
                start,
                "\"\\B\" in a class",
                "a class holds characters, not assertions",
            )),
            Some(digit @ '1'..='9') => Err(self.invalid_because(
                start,
                &format!("\"\\{digit}\" in a class"),
                "backreferences and octal escapes are not characters",
            )),
            _ => self.class_escape(start, true),
        }
    }

    /// The escapes a class and the outside share: character escapes and class escapes.
    fn class_escape(&mut self, start: usize, in_class: bool) -> Result<ClassAtom, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.invalid_because(start, "\"\\\"", "it ends the pattern"));
        };
        self.pos += 1;
        let set = |items: &str| Ok(ClassAtom::Set(CharSet::Items(items.to_owned())));
        let except = |items: &str| Ok(ClassAtom::Set(CharSet::Except(items.to_owned())));
        match c {
            'd' => set(DIGIT),
            'D' => except(DIGIT),
            'w' => set(WORD),
            'W' => except(WORD),
            's' => set(SPACE),
            'S' => except(SPACE),
            'p' | 'P' => self.property(start, c == 'P').map(ClassAtom::Set),
            'f' => Ok(ClassAtom::Char(0x0C)),
            'n' => Ok(ClassAtom::Char(0x0A)),
            'r' => Ok(ClassAtom::Char(0x0D)),
            't' => Ok(ClassAtom::Char(0x09)),
            'v' => Ok(ClassAtom::Char(0x0B)),
            'c' => match self.peek() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.pos += 1;
                    Ok(ClassAtom::Char(u32::from(letter) % 32))
                }
                _ => Err(self.invalid_because(
                    start,
                    "\"\\c\"",
                    "a control escape is \\c and a letter",
                )),
            },
            '0' => {
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.invalid_because(
                        start,
                        &format!("\"\\0{}\"", self.chars[self.pos]),
                        "octal escapes are not allowed with the u flag",
                    ));
                }
                Ok(ClassAtom::Char(0))
            }
            'x' => {
                let code = self.hex_digits(2);
                code.map(ClassAtom::Char).ok_or_else(|| {
                    self.invalid_because(start, "\"\\x\"", "it takes exactly two hex digits")
                })
            }
            'u' => self.unicode_escape(start).map(ClassAtom::Char),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => Ok(ClassAtom::Char(u32::from(c))),
            other => {
                let hint = match other {
                    'A' => "Rust and PCRE's start of text; write ^",
                    'z' | 'Z' => "Rust and PCRE's end of text; write $",
                    'Q' | 'E' => "Rust and PCRE's quoting; escape each syntax character instead",
                    'h' | 'H' => "PCRE's horizontal space; list the characters, e.g. [ \\t]",
                    '-' if !in_class => "\\- is an escape only inside a class",
                    _ => "with the u flag, only syntax characters and / may be escaped",
                };
                Err(self.invalid_because(start, &format!("\"\\{other}\""), hint))
            }
        }
    }

    /// `\p{…}` or `\P{…}` after the `p`.
    fn property(&mut self, start: usize, negated: bool) -> Result<CharSet, PatternError> {
        if !self.eat('{') {
            return Err(self.invalid_because(
                start,
                "\"\\p\"",
                "a property escape is written \\p{Name} or \\p{Name=Value}",
            ));
        }
        let body_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
        {
            self.pos += 1;
        }
        let body = self.text_from(body_start);
        if !self.eat('}') {
            return Err(self.invalid_because(
                start,
                &format!("\"{}\"", self.text_from(start)),
                "a property escape is written \\p{Name} or \\p{Name=Value}",
            ));
        }
        let shown = self.text_from(start);
        match properties::lookup(&body) {
            Lookup::Found(Property::Class(class)) if negated => Ok(CharSet::Except(class)),
            Lookup::Found(Property::Class(class)) => Ok(CharSet::Items(class)),
            Lookup::Found(Property::Nothing) if negated => Ok(CharSet::Everything),
            Lookup::Found(Property::Nothing) => Ok(CharSet::Nothing),
            Lookup::Unknown => Err(self.invalid_because(
                start,
                &format!("\"{shown}\""),
                "ECMA-262 knows no such property (names are case-sensitive)",
            )),
            Lookup::Unsupported => Err(self.unsupported(
                start,
                &format!("\"{shown}\""),
                "the regex engine's Unicode tables lack this property",
            )),
        }
    }

    /// After `\u`: four hex digits (a surrogate pair written as two escapes is one character),
    /// or `{…}` with up to 10FFFF.
    fn unicode_escape(&mut self, start: usize) -> Result<u32, PatternError> {
        if self.eat('{') {
            let digits_start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            let digits = self.text_from(digits_start);
            let trimmed = digits.trim_start_matches('0');
            let code = if trimmed.is_empty() && !digits.is_empty() {
                Some(0)
            } else if trimmed.len() <= 6 && !trimmed.is_empty() {
                u32::from_str_radix(trimmed, 16)
                    .ok()
                    .filter(|code| *code <= 0x10_FFFF)
            } else {
                None
            };
            return match (code, self.eat('}')) {
                (Some(code), true) => Ok(code),
                _ => Err(self.invalid_because(
                    start,
                    &format!("\"{}\"", self.text_from(start)),
                    "\\u{…} takes hex digits up to 10FFFF",
                )),
            };
        }
        let Some(code) = self.hex_digits(4) else {
            return Err(self.invalid_because(start, "\"\\u\"", "it takes four hex digits or {…}"));
        };
        if (0xD800..=0xDBFF).contains(&code)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let resume = self.pos;
            self.pos += 2;
            match self.hex_digits(4) {
                Some(low) if (0xDC00..=0xDFFF).contains(&low) => {
                    return Ok(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
                }
                _ => self.pos = resume,
            }
        }
        Ok(code)
    }

    /// Exactly `count` hex digits, consumed only when all are there.
    fn hex_digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.chars.get(self.pos..self.pos + count)?;
        if !digits.iter().all(char::is_ascii_hexdigit) {
            return None;
        }
        let text: String = digits.iter().collect();
        self.pos += count;
        u32::from_str_radix(&text, 16).ok()
    }
}

/// The upper bound of a `{…}` quantifier.
enum Bound {
    /// `{n}`.
    Exactly,
    /// `{n,}`.
    Unbounded,
    /// `{n,m}`, with `m`'s digits.
    AtMost(String),
}

const NO_LOOK_AROUND: &str = "the regex engine has no look-around";
const NO_BACKREFERENCES: &str = "the regex engine has no backreferences";

/// Writes the character `code` as a literal atom.
fn push_literal(out: &mut String, code: u32) {
    match char::from_u32(code) {
        // A lone surrogate (`\uD800`) is a character no Rust string holds.
        None => out.push_str(NOTHING),
        Some(c) if c.is_ascii_alphanumeric() || !c.is_ascii() => out.push(c),
        Some(_) => out.push_str(&format!("\\x{{{code:X}}}")),
    }
}

fn push_class_atom(items: &mut String, atom: ClassAtom) {
    match atom {
        ClassAtom::Char(code) => push_range(items, code, code),
        ClassAtom::Set(set) => items.push_str(&set.class_items()),
    }
}

/// Writes the range `low..=high` as class items, leaving out surrogate code points (no Rust
/// string holds one, and the regex crate cannot name them).
fn push_range(items: &mut String, low: u32, high: u32) {
    let low = if (0xD800..=0xDFFF).contains(&low) {
        0xE000
    } else {
        low
    };
    let high = if (0xD800..=0xDFFF).contains(&high) {
        0xD7FF
    } else {
        high
    };
    if low > high {
        return;
    }
    if low == high {
        items.push_str(&format!("\\x{{{low:X}}}"));
    } else {
        items.push_str(&format!("\\x{{{low:X}}}-\\x{{{high:X}}}"));
    }
}

/// Reads an identifier (a group name) at `pos`: `$`, `_` or a letter, then those, digits, marks
/// and the zero-width joiners.
fn read_identifier(chars: &[char], pos: &mut usize) -> String {
    let from = *pos;
    while let Some(&c) = chars.get(*pos) {
        let first = *pos == from;
        let ok = c == '$'
            || c == '_'
            || c.is_alphabetic()
            || (!first && (c.is_alphanumeric() || c == '\u{200C}' || c == '\u{200D}'));
        if !ok {
            break;
        }
        *pos += 1;
    }
    chars[from..*pos].iter().collect()
}

/// Counts the capturing groups and collects the group names of the whole pattern (a
/// backreference may name a group that comes after it).
fn scan_groups(chars: &[char]) -> (usize, Vec<String>) {
    let mut groups = 0;
    let mut names = Vec::new();
    let mut in_class = false;
    let mut pos = 0;
    while pos < chars.len() {
        match chars[pos] {
            '\\' => pos += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => match (chars.get(pos + 1), chars.get(pos + 2)) {
                (Some('?'), Some('<')) if !matches!(chars.get(pos + 3), Some('=' | '!')) => {
                    groups += 1;
                    let mut at = pos + 3;
                    names.push(read_identifier(chars, &mut at));
                }
                (Some('?'), _) => {}
                _ => groups += 1,
            },
            _ => {}
        }
        pos += 1;
    }
    (groups, names)
}
