//! An error sink: collects every `syn::Error` of one expansion so a single build shows every
//! mistake, not just the first.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

/// Collected errors. `finish` turns them into one combined `syn::Error`.
#[derive(Default)]
pub(crate) struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Records an error spanned on `tokens`.
    pub(crate) fn error_at(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.list.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an existing error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.list.push(error);
    }

    /// Records the error of `result`, returning its value when there is one.
    pub(crate) fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.list.push(error);
                None
            }
        }
    }

    /// `Ok` when nothing was recorded, else every error combined.
    pub(crate) fn finish(self) -> syn::Result<()> {
        let mut errors = self.list.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                for error in errors {
                    first.combine(error);
                }
                Err(first)
            }
        }
    }
}

/// The `compile_error!` invocations of `error`, to emit beside the user's item.
pub(crate) fn to_compile_errors(error: syn::Error) -> TokenStream {
    error.to_compile_error()
}
