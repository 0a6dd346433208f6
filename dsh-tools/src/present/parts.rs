//! What the declarative card keys of `#[tool]` ask of an argument field: how it reads inside a
//! `card_title` template ([`TitlePart`]) and which files it names as the `location` ([`LocationPart`]).
//!
//! The impls are marked `#[diagnostic::do_not_recommend]`, so a message about a field that does
//! not fit says what the key takes rather than listing the implementing types.

use std::path::PathBuf;

use crate::present::views::FileLocation;

/// How an argument value reads in a title template (`#[tool(card_title = "Read {path}")]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be shown in a tool card title",
    label = "title templates take strings, paths, numbers, booleans and `Option`s of those"
)]
pub trait TitlePart {
    /// Appends the value's text.
    fn push_title(&self, title: &mut String);
}

#[diagnostic::do_not_recommend]
impl TitlePart for String {
    fn push_title(&self, title: &mut String) {
        title.push_str(self);
    }
}

#[diagnostic::do_not_recommend]
impl TitlePart for str {
    fn push_title(&self, title: &mut String) {
        title.push_str(self);
    }
}

#[diagnostic::do_not_recommend]
impl TitlePart for PathBuf {
    fn push_title(&self, title: &mut String) {
        title.push_str(&self.to_string_lossy());
    }
}

#[diagnostic::do_not_recommend]
impl TitlePart for char {
    fn push_title(&self, title: &mut String) {
        title.push(*self);
    }
}

macro_rules! displayed_title {
    ($($ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl TitlePart for $ty {
            fn push_title(&self, title: &mut String) {
                title.push_str(&self.to_string());
            }
        }
    )*};
}

displayed_title!(
    bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

/// An absent value adds nothing.
#[diagnostic::do_not_recommend]
impl<T: TitlePart> TitlePart for Option<T> {
    fn push_title(&self, title: &mut String) {
        if let Some(value) = self {
            value.push_title(title);
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: TitlePart + ?Sized> TitlePart for Box<T> {
    fn push_title(&self, title: &mut String) {
        (**self).push_title(title);
    }
}

/// The files an argument names (`#[tool(location = path)]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot name a file location",
    label = "`location` takes a string or path field (or an `Option` or `Vec` of them)"
)]
pub trait LocationPart {
    /// The locations the value names.
    fn locations(&self) -> Vec<FileLocation>;
}

#[diagnostic::do_not_recommend]
impl LocationPart for String {
    fn locations(&self) -> Vec<FileLocation> {
        vec![FileLocation {
            path: self.clone(),
            line: None,
        }]
    }
}

#[diagnostic::do_not_recommend]
impl LocationPart for PathBuf {
    fn locations(&self) -> Vec<FileLocation> {
        vec![FileLocation {
            path: self.to_string_lossy().into_owned(),
            line: None,
        }]
    }
}

#[diagnostic::do_not_recommend]
impl<T: LocationPart> LocationPart for Option<T> {
    fn locations(&self) -> Vec<FileLocation> {
        self.as_ref()
            .map(LocationPart::locations)
            .unwrap_or_default()
    }
}

#[diagnostic::do_not_recommend]
impl<T: LocationPart> LocationPart for Vec<T> {
    fn locations(&self) -> Vec<FileLocation> {
        self.iter().flat_map(LocationPart::locations).collect()
    }
}
