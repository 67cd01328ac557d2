//! The page's state: the form's values and the run configuration they give (`form`), and the few
//! signals and the run loop that drives the core engine through `net` (`run`), and the page's
//! sign-in round trip (`signin`).
//!
//! May import: `net`. Its files import each other by name, never this one.

pub mod form;
pub mod run;
pub mod signin;
