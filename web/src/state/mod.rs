//! The page's state: the form's values and the run configuration they give (`form`), and the few
//! signals and the run loop that drives the core engine through `net` (`run`).
//!
//! May import: `net`. Its files import each other by name, never this one.

pub mod form;
pub mod run;
