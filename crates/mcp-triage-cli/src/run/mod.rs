//! What a probe run is whatever carries it: signals turned into events (`interrupt`), the output
//! forms the core makes (`output`), and the loop that drives the engine with the consent policy
//! (`drive`).
//!
//! May import: nothing of this crate outside this folder. Its files import each other by name.

pub(crate) mod drive;
pub(crate) mod interrupt;
pub(crate) mod output;
#[cfg(test)]
mod surfaces;
