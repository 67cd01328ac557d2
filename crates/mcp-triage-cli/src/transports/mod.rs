//! The shells that move bytes: the blocking HTTP client (`http`) and the child process spoken to
//! over stdio (`stdio`). Both hand every exchange back to the engine through `run::drive`.
//!
//! May import: `run`. Its files import each other by name, never this one.

pub(crate) mod http;
#[cfg(unix)]
pub(crate) mod stdio;
