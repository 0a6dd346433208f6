//! `rename_all` rules: how a Rust field or variant name becomes a JSON key, spelled as serde
//! spells them so `#[serde(rename_all)]` and `#[tool_args(rename_all)]` mean the same thing.

/// A renaming rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub(crate) fn from_str(text: &str) -> Option<Self> {
        RULES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, rule)| *rule)
    }

    pub(crate) fn unknown_message(text: &str) -> String {
        let names: Vec<&str> = RULES.iter().map(|(name, _)| *name).collect();
        format!(
            "unknown rename rule `{text}`; expected one of: {}",
            names.join(", ")
        )
    }

    /// Renames a field (written in snake_case in Rust).
    pub(crate) fn apply_to_field(self, field: &str) -> String {
        // serde keeps the underscores of a snake_case field for the two single-case rules.
        match self {
            Self::Lower | Self::Snake => return field.to_owned(),
            Self::Upper | Self::ScreamingSnake => return field.to_ascii_uppercase(),
            _ => {}
        }
        let words: Vec<&str> = field.split('_').filter(|word| !word.is_empty()).collect();
        self.join(&words)
    }

    /// Renames a variant (written in PascalCase in Rust).
    pub(crate) fn apply_to_variant(self, variant: &str) -> String {
        let mut words = Vec::new();
        let mut current = String::new();
        for ch in variant.chars() {
            if ch.is_uppercase() && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            current.push(ch);
        }
        if !current.is_empty() {
            words.push(current);
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        self.join(&words)
    }

    fn join(self, words: &[&str]) -> String {
        let lower: Vec<String> = words.iter().map(|word| word.to_lowercase()).collect();
        let upper: Vec<String> = words.iter().map(|word| word.to_uppercase()).collect();
        let capitalized: Vec<String> = lower.iter().map(|word| capitalize(word)).collect();
        match self {
            Self::Lower => lower.concat(),
            Self::Upper => upper.concat(),
            Self::Pascal => capitalized.concat(),
            Self::Camel => match capitalized.split_first() {
                Some((_, rest)) => format!("{}{}", lower[0], rest.concat()),
                None => String::new(),
            },
            Self::Snake => lower.join("_"),
            Self::ScreamingSnake => upper.join("_"),
            Self::Kebab => lower.join("-"),
            Self::ScreamingKebab => upper.join("-"),
        }
    }
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_like_serde() {
        assert_eq!(
            RenameRule::Camel.apply_to_field("max_results"),
            "maxResults"
        );
        assert_eq!(
            RenameRule::Pascal.apply_to_field("max_results"),
            "MaxResults"
        );
        assert_eq!(
            RenameRule::Kebab.apply_to_field("max_results"),
            "max-results"
        );
        assert_eq!(RenameRule::ScreamingSnake.apply_to_field("a_b"), "A_B");
        assert_eq!(RenameRule::Upper.apply_to_field("a_b"), "A_B");
        assert_eq!(RenameRule::Lower.apply_to_field("a_b"), "a_b");
        assert_eq!(
            RenameRule::Snake.apply_to_variant("FollowLinks"),
            "follow_links"
        );
        assert_eq!(RenameRule::Lower.apply_to_variant("Regex"), "regex");
        assert_eq!(
            RenameRule::Camel.apply_to_variant("FollowLinks"),
            "followLinks"
        );
        assert_eq!(
            RenameRule::Kebab.apply_to_variant("FollowLinks"),
            "follow-links"
        );
    }
}
