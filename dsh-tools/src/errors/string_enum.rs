//! How [`ErrorCode`](super::ErrorCode), a closed set of the registry's own strings as an enum,
//! compares with and converts into the plain strings an [`ErrorInfo`](super::ErrorInfo) holds (a
//! tool's own codes are any string, so the info keeps strings; the enum names the registry's).

/// Implements, for an enum whose `as_str` gives each variant's fixed string, `Display`, `AsRef<str>`,
/// conversions into `Cow<'static, str>` and `String`, and equality with `str`, `&str`, `String`
/// and `Cow<str>` both ways, so `info.code == ErrorCode::InvalidArgs` and
/// `ErrorCode::InvalidArgs == "INVALID_ARGS"` both read as a comparison of the text.
macro_rules! string_enum {
    ($name:ident) => {
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl From<$name> for ::std::borrow::Cow<'static, str> {
            fn from(value: $name) -> Self {
                ::std::borrow::Cow::Borrowed(value.as_str())
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> Self {
                value.as_str().to_owned()
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<::std::borrow::Cow<'_, str>> for $name {
            fn eq(&self, other: &::std::borrow::Cow<'_, str>) -> bool {
                self.as_str() == other.as_ref()
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.as_str()
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                self == other.as_str()
            }
        }

        impl PartialEq<$name> for ::std::borrow::Cow<'_, str> {
            fn eq(&self, other: &$name) -> bool {
                self.as_ref() == other.as_str()
            }
        }
    };
}

pub(super) use string_enum;
