//! How a family reads its keywords out of a schema object: the values as written, and the
//! reader's way of reporting one it cannot take, behind [`KeywordSource`], so that a family's
//! `read` (and `parse`, where the keyword engine reads differently) names its keywords and the
//! rules of their values, and the readers that implement the trait (the importer, the keyword
//! engine's compiler) name none of them.

use serde_json::{Number, Value};

use crate::format::StringFormat;

/// One schema object being read, as the families read it.
pub(crate) trait KeywordSource {
    /// The value `keyword` has, if present.
    fn get(&self, keyword: &str) -> Option<&Value>;

    /// Reports that `keyword`'s value cannot be taken: `why` follows the keyword's path in the
    /// importer's problem (`must be a number`).
    fn refuse(&mut self, keyword: &str, why: &str);

    /// The format `name` names, as the import's options read it (checked or annotation only).
    fn format_named(&self, name: &str) -> StringFormat;

    /// A non-negative integer keyword (`minLength`, `minItems`, …): `None` when absent or
    /// refused. A float counts when it is an integer inside `u64`'s range.
    fn count(&mut self, keyword: &str) -> Option<u64> {
        let value = self.get(keyword)?;
        let count = value.as_u64().or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 18_446_744_073_709_551_616.0)
                // Exact: integral and inside the u64 range.
                .map(|f| f as u64)
        });
        if count.is_none() {
            self.refuse(keyword, "must be a non-negative integer");
        }
        count
    }

    /// A number keyword (`minimum`, …): `None` when absent or refused.
    fn number(&mut self, keyword: &str) -> Option<Number> {
        match self.get(keyword)? {
            Value::Number(number) => Some(number.clone()),
            _ => {
                self.refuse(keyword, "must be a number");
                None
            }
        }
    }
}
