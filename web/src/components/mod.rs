//! UI components, one per file.

pub mod target_form;
