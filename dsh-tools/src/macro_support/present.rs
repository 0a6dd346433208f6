//! Pieces of declarative presenters: how an argument field reads inside a card title, and which
//! argument fields name files.

use std::path::PathBuf;

use crate::present::FileLocation;

/// How an argument value reads in a title template (`"Read {path}"`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be shown in a tool card title",
    label = "title templates take strings, paths, numbers, booleans and `Option`s of those"
)]
pub trait TitlePart {
    /// Appends the value's text.
    fn push_title(&self, title: &mut String);
}

impl TitlePart for String {
    fn push_title(&self, title: &mut String) {
        title.push_str(self);
    }
}

impl TitlePart for str {
    fn push_title(&self, title: &mut String) {
        title.push_str(self);
    }
}

impl TitlePart for PathBuf {
    fn push_title(&self, title: &mut String) {
        title.push_str(&self.to_string_lossy());
    }
}

impl TitlePart for char {
    fn push_title(&self, title: &mut String) {
        title.push(*self);
    }
}

macro_rules! displayed_title {
    ($($ty:ty),* $(,)?) => {$(
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
impl<T: TitlePart> TitlePart for Option<T> {
    fn push_title(&self, title: &mut String) {
        if let Some(value) = self {
            value.push_title(title);
        }
    }
}

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

impl LocationPart for String {
    fn locations(&self) -> Vec<FileLocation> {
        vec![FileLocation::new(self.clone())]
    }
}

impl LocationPart for PathBuf {
    fn locations(&self) -> Vec<FileLocation> {
        vec![FileLocation::new(self.to_string_lossy().into_owned())]
    }
}

impl<T: LocationPart> LocationPart for Option<T> {
    fn locations(&self) -> Vec<FileLocation> {
        self.as_ref()
            .map(LocationPart::locations)
            .unwrap_or_default()
    }
}

impl<T: LocationPart> LocationPart for Vec<T> {
    fn locations(&self) -> Vec<FileLocation> {
        self.iter().flat_map(LocationPart::locations).collect()
    }
}
