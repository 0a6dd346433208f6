//! The value keywords of `#[arg(..)]` (`minimum`, `min_length`, `pattern`, `unique_items`, …),
//! one row each: how the attribute spells it, its JSON name, the value it takes, the fields it
//! suits, the schema step it lowers to and the check the generated validator runs. The attribute
//! parser (`attr/arg.rs`), the checks of misuse (`check.rs`, `expand/checks.rs`), the schema
//! steps (`expand/schema.rs`, and `expand/docs.rs` at compile time) and the generated validator
//! (`expand/validate.rs`) read these rows instead of naming the keywords, so a keyword of a
//! family they already know is one row here.
//!
//! This file is data: it knows no tokens, no parsing and no emitter. A keyword's rule itself
//! lives in the schema engine (`dsh_tools_schema::rules` for its check and JSON name,
//! `dsh_tools_schema::derive` for its step), which every row names.

use dsh_tools_schema::derive;
use dsh_tools_schema::rules::{arrays, lengths, matching, numbers, objects};
use dsh_tools_schema::{Schema, SchemaError};
use serde_json::Number;

/// A schema step, as the macros run it at compile time for the documented schema.
type Step<T> = fn(Schema, T) -> Result<Schema, SchemaError>;

/// A schema step that takes a string.
type TextStep = fn(Schema, &str) -> Result<Schema, SchemaError>;

/// One value keyword of `#[arg(..)]`.
pub(crate) struct Keyword {
    /// How `#[arg(..)]` spells it (`min_length`), in the runtime's error texts too.
    pub(crate) name: &'static str,
    /// Its JSON name, as the schema engine writes it (`minLength`).
    pub(crate) json: &'static str,
    /// The value it takes, and its schema step at compile time.
    pub(crate) takes: Takes,
    /// The schema step generated code calls: `__private::<step>(schema, value)`.
    pub(crate) step: &'static str,
    /// The kind of field it suits.
    pub(crate) suits: Suits,
    /// The check the generated validator runs.
    pub(crate) check: Check,
}

/// The value a keyword takes, with the step that applies it (`dsh_tools_schema::derive`).
#[derive(Clone, Copy)]
pub(crate) enum Takes {
    /// A number literal that fits 64 bits.
    Number(Step<Number>),
    /// A number literal above 0.
    Positive(Step<Number>),
    /// A non-negative integer.
    Count(Step<u64>),
    /// The bare key (or `= true`); `= false` is refused, being the default.
    True(fn(Schema) -> Result<Schema, SchemaError>),
    /// An ECMA-262 pattern, compiled at compile time as the runtime compiles it.
    Pattern(TextStep),
    /// A string.
    Text(TextStep),
}

impl Takes {
    /// Where the value's step falls among a field's steps: numbers, then counts, then flags,
    /// then texts, the order generated code has always applied them in (a step that does not
    /// suit the schema fails, and the first to fail is the one reported).
    pub(crate) fn step_rank(self) -> u8 {
        match self {
            Self::Number(_) | Self::Positive(_) => 0,
            Self::Count(_) => 1,
            Self::True(_) => 2,
            Self::Pattern(_) | Self::Text(_) => 3,
        }
    }
}

/// The kind of field a keyword suits: the `dsh_tools::fields` trait a field's type must
/// implement, checked at the type's tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Suits {
    Number,
    String,
    Array,
    Map,
}

impl Suits {
    /// The trait's name in `dsh_tools::fields`.
    pub(crate) fn field_trait(self) -> &'static str {
        match self {
            Self::Number => "NumberField",
            Self::String => "StringField",
            Self::Array => "ArrayField",
            Self::Map => "MapField",
        }
    }
}

/// Which end of a range a bound is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Lower,
    Upper,
}

/// What the generated validator runs for a keyword, through `__private` (the checks of
/// `dsh_tools_schema::rules`).
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// One end of a range, checked with the other end in one call, `call(value, lower, upper)`,
    /// an absent end as `None`; `exclusive` when the value may not equal the bound. Two ends of
    /// the kind of field they suit must leave some value between them.
    Bound {
        call: &'static str,
        side: Side,
        exclusive: bool,
    },
    /// `call(value, keyword's value)`.
    With(&'static str),
    /// `call(value)`.
    Plain(&'static str),
    /// `call(value, &compiled)`, the keyword's value compiled once by `compile` into a static
    /// `Option<into>` (`into` named through `__private`).
    Compiled {
        compile: &'static str,
        into: &'static str,
        call: &'static str,
    },
}

impl Check {
    /// The end of a range this is, with whether it excludes the bound.
    pub(crate) fn bound(self) -> Option<(Side, bool)> {
        match self {
            Self::Bound {
                side, exclusive, ..
            } => Some((side, exclusive)),
            _ => None,
        }
    }
}

/// Every value keyword, in the order `#[arg(..)]` lists its keys in errors; the generated
/// validator checks them in this order, the ends of a range at the first of them.
pub(crate) const KEYWORDS: &[Keyword] = &[
    Keyword {
        name: "minimum",
        json: numbers::MINIMUM,
        takes: Takes::Number(derive::with_minimum),
        step: "with_minimum",
        suits: Suits::Number,
        check: Check::Bound {
            call: "is_within",
            side: Side::Lower,
            exclusive: false,
        },
    },
    Keyword {
        name: "maximum",
        json: numbers::MAXIMUM,
        takes: Takes::Number(derive::with_maximum),
        step: "with_maximum",
        suits: Suits::Number,
        check: Check::Bound {
            call: "is_within",
            side: Side::Upper,
            exclusive: false,
        },
    },
    Keyword {
        name: "exclusive_minimum",
        json: numbers::EXCLUSIVE_MINIMUM,
        takes: Takes::Number(derive::with_exclusive_minimum),
        step: "with_exclusive_minimum",
        suits: Suits::Number,
        check: Check::Bound {
            call: "is_strictly_within",
            side: Side::Lower,
            exclusive: true,
        },
    },
    Keyword {
        name: "exclusive_maximum",
        json: numbers::EXCLUSIVE_MAXIMUM,
        takes: Takes::Number(derive::with_exclusive_maximum),
        step: "with_exclusive_maximum",
        suits: Suits::Number,
        check: Check::Bound {
            call: "is_strictly_within",
            side: Side::Upper,
            exclusive: true,
        },
    },
    Keyword {
        name: "multiple_of",
        json: numbers::MULTIPLE_OF,
        takes: Takes::Positive(derive::with_multiple_of),
        step: "with_multiple_of",
        suits: Suits::Number,
        check: Check::With("is_multiple"),
    },
    Keyword {
        name: "min_length",
        json: lengths::MIN_LENGTH,
        takes: Takes::Count(derive::with_min_length),
        step: "with_min_length",
        suits: Suits::String,
        check: Check::Bound {
            call: "has_length",
            side: Side::Lower,
            exclusive: false,
        },
    },
    Keyword {
        name: "max_length",
        json: lengths::MAX_LENGTH,
        takes: Takes::Count(derive::with_max_length),
        step: "with_max_length",
        suits: Suits::String,
        check: Check::Bound {
            call: "has_length",
            side: Side::Upper,
            exclusive: false,
        },
    },
    Keyword {
        name: "pattern",
        json: matching::PATTERN,
        takes: Takes::Pattern(derive::with_pattern),
        step: "with_pattern",
        suits: Suits::String,
        check: Check::Compiled {
            compile: "compile_pattern",
            into: "Pattern",
            call: "matches_pattern",
        },
    },
    Keyword {
        name: "format",
        json: matching::FORMAT,
        takes: Takes::Text(derive::with_format),
        step: "with_format",
        suits: Suits::String,
        check: Check::With("matches_format"),
    },
    Keyword {
        name: "min_items",
        json: arrays::MIN_ITEMS,
        takes: Takes::Count(derive::with_min_items),
        step: "with_min_items",
        suits: Suits::Array,
        check: Check::Bound {
            call: "has_items",
            side: Side::Lower,
            exclusive: false,
        },
    },
    Keyword {
        name: "max_items",
        json: arrays::MAX_ITEMS,
        takes: Takes::Count(derive::with_max_items),
        step: "with_max_items",
        suits: Suits::Array,
        check: Check::Bound {
            call: "has_items",
            side: Side::Upper,
            exclusive: false,
        },
    },
    Keyword {
        name: "unique_items",
        json: arrays::UNIQUE_ITEMS,
        takes: Takes::True(derive::with_unique_items),
        step: "with_unique_items",
        suits: Suits::Array,
        check: Check::Plain("has_unique_items"),
    },
    Keyword {
        name: "min_properties",
        json: objects::MIN_PROPERTIES,
        takes: Takes::Count(derive::with_min_properties),
        step: "with_min_properties",
        suits: Suits::Map,
        check: Check::Bound {
            call: "has_properties",
            side: Side::Lower,
            exclusive: false,
        },
    },
    Keyword {
        name: "max_properties",
        json: objects::MAX_PROPERTIES,
        takes: Takes::Count(derive::with_max_properties),
        step: "with_max_properties",
        suits: Suits::Map,
        check: Check::Bound {
            call: "has_properties",
            side: Side::Upper,
            exclusive: false,
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema of the kind of field `suits` names.
    fn suited(suits: Suits) -> Schema {
        match suits {
            Suits::Number => Schema::number().build(),
            Suits::String => Schema::string().build(),
            Suits::Array => Schema::array(Schema::string()).build(),
            Suits::Map => Schema::object().additional_schema(Schema::string()).build(),
        }
    }

    /// The row's step applied to `schema` with a value of the kind the row takes.
    fn step(keyword: &Keyword, schema: Schema) -> Result<Schema, SchemaError> {
        match keyword.takes {
            Takes::Number(apply) | Takes::Positive(apply) => apply(schema, Number::from(3)),
            Takes::Count(apply) => apply(schema, 3),
            Takes::True(apply) => apply(schema),
            Takes::Pattern(apply) => apply(schema, "^a+$"),
            Takes::Text(apply) => apply(schema, "date-time"),
        }
    }

    /// Each row's step, applied to a schema of the kind it suits, makes the engine render the
    /// row's JSON name: the row's columns name one keyword.
    #[test]
    fn each_rows_step_renders_its_json_name() {
        for keyword in KEYWORDS {
            let schema = suited(keyword.suits);
            let stepped = step(keyword, schema);
            let rendered = match stepped {
                Ok(stepped) => stepped.to_json_schema(),
                Err(error) => panic!("`{}` refused its own kind: {error}", keyword.name),
            };
            assert!(
                rendered.get(keyword.json).is_some(),
                "`{}` did not render `{}`: {rendered}",
                keyword.name,
                keyword.json
            );
        }
    }

    /// A step refuses the kinds of field its row does not name, so the compile-time check of
    /// the field's kind and the runtime's agree.
    #[test]
    fn each_rows_step_refuses_other_kinds() {
        let kinds = [Suits::Number, Suits::String, Suits::Array, Suits::Map];
        for keyword in KEYWORDS {
            for other in kinds.into_iter().filter(|kind| *kind != keyword.suits) {
                let schema = suited(other);
                let stepped = step(keyword, schema);
                assert!(
                    stepped.is_err(),
                    "`{}` accepted a {}",
                    keyword.name,
                    other.field_trait()
                );
            }
        }
    }

    /// The two ends of a range are one call's, of one kind of field, and each end is there once.
    #[test]
    fn each_range_has_one_lower_and_one_upper_end_of_one_kind() {
        for keyword in KEYWORDS {
            let Check::Bound { call, .. } = keyword.check else {
                continue;
            };
            let ends: Vec<&Keyword> = KEYWORDS
                .iter()
                .filter(|other| matches!(other.check, Check::Bound { call: c, .. } if c == call))
                .collect();
            let sides: Vec<Side> = ends
                .iter()
                .filter_map(|end| end.check.bound().map(|(side, _)| side))
                .collect();
            assert!(
                sides.len() == 2 && sides.contains(&Side::Lower) && sides.contains(&Side::Upper),
                "`{call}` needs one lower and one upper end"
            );
            assert!(
                ends.iter().all(|end| end.suits == keyword.suits),
                "`{call}`'s ends suit different fields"
            );
        }
    }
}
