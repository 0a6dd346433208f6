//! [`Dialect`]: which provider request shape a tool list is lowered for, and the rules each one
//! follows ([`Profile`], crate-private), written from the providers' published constraints.
//!
//! Non-strict OpenAI and DeepSeek take any object schema as a hint and Anthropic takes any
//! object schema without a union at its root, so their views change only what the envelope
//! needs. Strict modes and Gemini's schema subsets each get their own keyword table.

use super::names::NameRule;

/// The API shape and mode a tool list is lowered for, spelled by its variant:
/// `Dialect::Anthropic { strict: true }`, `Dialect::Gemini { schema: GeminiSchema::JsonSchema }`.
/// [`ALL`](Self::ALL) lists every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// OpenAI Chat Completions: `tools: [{"type":"function","function":{…}}]`.
    OpenAiChat {
        /// Send `strict: true` (Structured Outputs) for every tool that can be made strict.
        strict: bool,
    },
    /// OpenAI Responses: `tools: [{"type":"function","name":…}]`.
    OpenAiResponses {
        /// Send `strict: true` for every tool that can be made strict (otherwise
        /// `strict: false`: the Responses API defaults to strict).
        strict: bool,
    },
    /// Anthropic Messages: `tools: [{"name","description","input_schema"}]`.
    Anthropic {
        /// Send `strict: true` for every tool that can be made strict.
        strict: bool,
    },
    /// Gemini `generateContent`: `tools: [{"functionDeclarations": […]}]`.
    Gemini {
        /// Which schema field the declarations carry.
        schema: GeminiSchema,
    },
    /// DeepSeek Chat Completions (OpenAI-compatible).
    DeepSeek {
        /// Send `strict: true` on every tool that can be made strict. DeepSeek's strict mode is
        /// a beta: requests must go to its `/beta` base URL.
        strict: bool,
    },
}

/// The schema field of a Gemini function declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeminiSchema {
    /// `parameters`: Gemini's OpenAPI 3.0 subset (`nullable`, string-only `enum`, no `$ref`,
    /// no `additionalProperties`).
    OpenApi,
    /// `parametersJsonSchema`: a JSON Schema subset (`$ref`/`$defs`, type arrays, `anyOf`).
    JsonSchema,
}

impl Dialect {
    /// The same dialect, strict or not as `strict` says (a Gemini dialect stays as it is).
    pub(crate) const fn with_strict(self, strict: bool) -> Self {
        match self {
            Self::OpenAiChat { .. } => Self::OpenAiChat { strict },
            Self::OpenAiResponses { .. } => Self::OpenAiResponses { strict },
            Self::Anthropic { .. } => Self::Anthropic { strict },
            Self::DeepSeek { .. } => Self::DeepSeek { strict },
            gemini @ Self::Gemini { .. } => gemini,
        }
    }

    /// A short stable name (`openai-chat-strict`, `gemini-json-schema`, …), used for golden
    /// files and logs.
    pub const fn id(self) -> &'static str {
        match self {
            Self::OpenAiChat { strict: false } => "openai-chat",
            Self::OpenAiChat { strict: true } => "openai-chat-strict",
            Self::OpenAiResponses { strict: false } => "openai-responses",
            Self::OpenAiResponses { strict: true } => "openai-responses-strict",
            Self::Anthropic { strict: false } => "anthropic",
            Self::Anthropic { strict: true } => "anthropic-strict",
            Self::Gemini {
                schema: GeminiSchema::OpenApi,
            } => "gemini",
            Self::Gemini {
                schema: GeminiSchema::JsonSchema,
            } => "gemini-json-schema",
            Self::DeepSeek { strict: false } => "deepseek",
            Self::DeepSeek { strict: true } => "deepseek-strict",
        }
    }

    /// Every dialect, non-strict and strict.
    pub const ALL: [Dialect; 10] = [
        Self::OpenAiChat { strict: false },
        Self::OpenAiChat { strict: true },
        Self::OpenAiResponses { strict: false },
        Self::OpenAiResponses { strict: true },
        Self::Anthropic { strict: false },
        Self::Anthropic { strict: true },
        Self::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        Self::Gemini {
            schema: GeminiSchema::JsonSchema,
        },
        Self::DeepSeek { strict: false },
        Self::DeepSeek { strict: true },
    ];

    /// The provider's tool-name rule. Not API, as [`NameRule`] is not.
    #[doc(hidden)]
    pub const fn name_rule(self) -> NameRule {
        match self {
            Self::Gemini { .. } => NameRule::Gemini64,
            _ => NameRule::Alphanumeric64,
        }
    }

    /// The profile of the non-strict view a tool falls back to when it cannot be strict.
    pub(crate) fn fallback_profile(self) -> Profile {
        match self {
            Self::Anthropic { .. } => Profile::ANTHROPIC,
            _ => Profile::PASSTHROUGH,
        }
    }

    pub(crate) fn profile(self) -> Profile {
        match self {
            Self::OpenAiChat { strict } | Self::OpenAiResponses { strict } => {
                if strict {
                    Profile::OPENAI_STRICT
                } else {
                    Profile::PASSTHROUGH
                }
            }
            Self::Anthropic { strict } => {
                if strict {
                    Profile::ANTHROPIC_STRICT
                } else {
                    Profile::ANTHROPIC
                }
            }
            Self::Gemini {
                schema: GeminiSchema::OpenApi,
            } => Profile::GEMINI_OPENAPI,
            Self::Gemini {
                schema: GeminiSchema::JsonSchema,
            } => Profile::GEMINI_JSON,
            Self::DeepSeek { strict } => {
                if strict {
                    Profile::DEEPSEEK_STRICT
                } else {
                    Profile::PASSTHROUGH
                }
            }
        }
    }
}

/// What a provider does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    /// Sent as is.
    Keep,
    /// Removed and written into the description.
    Describe,
    /// Removed (annotation only).
    Drop,
}

/// How recursion (`$ref` cycles) is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// Recursive definitions stay under `$defs`, referenced by `$ref`.
    Keep,
    /// Strict cannot express it: the tool falls back to non-strict.
    Block,
    /// Unrolled three levels deep, then cut: the level below is sent as a free-form object.
    Cut,
}

/// How a nullable schema is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nullable {
    /// `"type": ["T", "null"]` (or a `{"type": "null"}` branch of an `anyOf`).
    TypeArray,
    /// Like `TypeArray`, but an object or array type goes into an `anyOf` with a null branch.
    AnyOfForContainers,
    /// OpenAPI's `"nullable": true` beside one `type`.
    OpenApi,
}

/// The lowering rules of one dialect.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Profile {
    /// Whether anything beyond the envelope (root object, root unions) is rewritten.
    pub(crate) rewrite: bool,
    /// Strict: close every object, reject what cannot be closed.
    pub(crate) strict: bool,
    /// Strict: every property required (optional ones made nullable).
    pub(crate) require_all: bool,
    /// Root-level `anyOf`/`oneOf`/`allOf` are merged into one object.
    pub(crate) merge_root_unions: bool,
    pub(crate) one_of_to_any_of: bool,
    pub(crate) const_to_enum: bool,
    /// `enum` members other than strings are moved into the description.
    pub(crate) string_enums_only: bool,
    /// `enum` members may be strings and numbers only (a `null` member becomes a nullable form).
    pub(crate) enum_without_null: bool,
    pub(crate) nullable: Nullable,
    pub(crate) recursion: Recursion,
    /// `additionalProperties` is not a field of the schema (Gemini's OpenAPI subset).
    pub(crate) no_additional_properties: bool,
    /// `allOf` survives (otherwise merged, or described when it cannot be). Strict views merge:
    /// closing each part of an `allOf` on its own would reject what the whole accepts.
    pub(crate) keeps_all_of: bool,
    /// `prefixItems` survives (otherwise widened into `items`).
    pub(crate) keeps_prefix_items: bool,
    /// Nested objects with no properties lose the empty `properties` (Gemini rejects them).
    pub(crate) no_empty_properties: bool,
    /// Every node needs a `type` unless it is an `anyOf` (Gemini's OpenAPI `Schema`), and an
    /// array its `items`: untyped values are written as an `anyOf` of the JSON types.
    pub(crate) typed_nodes: bool,
    /// `minItems` above this is described (Anthropic strict takes only 0 or 1).
    pub(crate) max_min_items: Option<u64>,
    /// The string `format`s kept; `None` keeps every one.
    pub(crate) formats: Option<&'static [&'static str]>,
    /// The rule for every other keyword.
    pub(crate) keyword: fn(&str) -> Keyword,
}

const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];
const DEEPSEEK_FORMATS: &[&str] = &["email", "hostname", "ipv4", "ipv6", "uuid"];

/// Annotations no view needs: removed wherever a schema is rewritten.
fn annotation_only(key: &str) -> bool {
    matches!(
        key,
        "$schema"
            | "$id"
            | "$comment"
            | "$anchor"
            | "examples"
            | "example"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "contentEncoding"
            | "contentMediaType"
            | "discriminator"
    )
}

fn openai_strict_keyword(key: &str) -> Keyword {
    match key {
        "title" | "pattern" | "format" | "minimum" | "maximum" | "exclusiveMinimum"
        | "exclusiveMaximum" | "multipleOf" | "minItems" | "maxItems" => Keyword::Keep,
        key if annotation_only(key) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

fn anthropic_strict_keyword(key: &str) -> Keyword {
    match key {
        "title" | "format" | "minItems" => Keyword::Keep,
        key if annotation_only(key) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

fn gemini_openapi_keyword(key: &str) -> Keyword {
    match key {
        "format" | "default" | "minItems" | "maxItems" | "minLength" | "maxLength" | "pattern"
        | "minimum" | "maximum" | "minProperties" | "maxProperties" | "propertyOrdering" => {
            Keyword::Keep
        }
        // python-genai rejects `title` in some versions; it only repeats the name.
        "title" => Keyword::Drop,
        key if annotation_only(key) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

fn gemini_json_keyword(key: &str) -> Keyword {
    match key {
        "title" | "format" | "minItems" | "maxItems" | "minimum" | "maximum"
        | "propertyOrdering" => Keyword::Keep,
        key if annotation_only(key) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

fn deepseek_strict_keyword(key: &str) -> Keyword {
    match key {
        "title" | "format" => Keyword::Keep,
        key if annotation_only(key) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

fn keep_everything(_: &str) -> Keyword {
    Keyword::Keep
}

impl Profile {
    /// Non-strict OpenAI and DeepSeek: any object schema is a hint.
    pub(crate) const PASSTHROUGH: Self = Self {
        rewrite: false,
        strict: false,
        require_all: false,
        merge_root_unions: false,
        one_of_to_any_of: false,
        const_to_enum: false,
        string_enums_only: false,
        enum_without_null: false,
        nullable: Nullable::TypeArray,
        recursion: Recursion::Keep,
        no_additional_properties: false,
        keeps_all_of: true,
        keeps_prefix_items: true,
        no_empty_properties: false,
        typed_nodes: false,
        max_min_items: None,
        formats: None,
        keyword: keep_everything,
    };

    /// Non-strict Anthropic: any object schema, but no union at the root.
    pub(crate) const ANTHROPIC: Self = Self {
        merge_root_unions: true,
        ..Self::PASSTHROUGH
    };

    pub(crate) const OPENAI_STRICT: Self = Self {
        rewrite: true,
        strict: true,
        require_all: true,
        merge_root_unions: true,
        one_of_to_any_of: true,
        const_to_enum: false,
        string_enums_only: false,
        enum_without_null: false,
        nullable: Nullable::TypeArray,
        recursion: Recursion::Keep,
        no_additional_properties: false,
        keeps_all_of: false,
        keeps_prefix_items: true,
        no_empty_properties: false,
        typed_nodes: false,
        max_min_items: None,
        formats: Some(OPENAI_FORMATS),
        keyword: openai_strict_keyword,
    };

    pub(crate) const ANTHROPIC_STRICT: Self = Self {
        rewrite: true,
        strict: true,
        require_all: false,
        merge_root_unions: true,
        one_of_to_any_of: true,
        const_to_enum: true,
        string_enums_only: false,
        enum_without_null: false,
        nullable: Nullable::TypeArray,
        recursion: Recursion::Block,
        no_additional_properties: false,
        keeps_all_of: false,
        keeps_prefix_items: false,
        no_empty_properties: false,
        typed_nodes: false,
        max_min_items: Some(1),
        formats: Some(ANTHROPIC_FORMATS),
        keyword: anthropic_strict_keyword,
    };

    pub(crate) const GEMINI_OPENAPI: Self = Self {
        rewrite: true,
        strict: false,
        require_all: false,
        merge_root_unions: true,
        one_of_to_any_of: true,
        const_to_enum: true,
        string_enums_only: true,
        enum_without_null: true,
        nullable: Nullable::OpenApi,
        recursion: Recursion::Cut,
        no_additional_properties: true,
        keeps_all_of: false,
        keeps_prefix_items: false,
        no_empty_properties: true,
        typed_nodes: true,
        max_min_items: None,
        // The Developer API takes only `enum` and `date-time`; everything else is described.
        formats: Some(&["date-time"]),
        keyword: gemini_openapi_keyword,
    };

    pub(crate) const GEMINI_JSON: Self = Self {
        rewrite: true,
        strict: false,
        require_all: false,
        merge_root_unions: true,
        one_of_to_any_of: true,
        const_to_enum: true,
        string_enums_only: false,
        enum_without_null: true,
        nullable: Nullable::TypeArray,
        recursion: Recursion::Keep,
        no_additional_properties: false,
        keeps_all_of: false,
        keeps_prefix_items: true,
        no_empty_properties: false,
        typed_nodes: false,
        max_min_items: None,
        formats: None,
        keyword: gemini_json_keyword,
    };

    pub(crate) const DEEPSEEK_STRICT: Self = Self {
        rewrite: true,
        strict: true,
        require_all: true,
        merge_root_unions: true,
        one_of_to_any_of: true,
        const_to_enum: true,
        string_enums_only: false,
        enum_without_null: false,
        nullable: Nullable::AnyOfForContainers,
        recursion: Recursion::Block,
        no_additional_properties: false,
        keeps_all_of: false,
        keeps_prefix_items: false,
        no_empty_properties: false,
        typed_nodes: false,
        max_min_items: None,
        formats: Some(DEEPSEEK_FORMATS),
        keyword: deepseek_strict_keyword,
    };
}
