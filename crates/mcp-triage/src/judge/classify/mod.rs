//! The decision table: an [`Exchange`] in, a [`Verdict`] out. Total: never fails, never panics.
//!
//! Order of questions: did a response arrive (channel `network`)? Is the status ≥ 300 (`http`)? Else,
//! is there a JSON-RPC response to our id, and is it an error frame, an `isError` result or a result?
//! The cause comes from structure first (status, code, `isError`, headers, challenge parameters, the
//! shape of our own request), then from the probe's intent where the caller gave one, and from prose
//! only when structure is silent; evidence records which.
//!
//! One module per responsibility: [`request`] reads our own request (and lists the checks of what it
//! did wrong), [`status`] answers with a status ≥ 300 (the status table), [`frame`] JSON-RPC error
//! frames, [`result`] results and `isError` results, [`prose`] the one search of the server's words
//! for an unknown tool or refused arguments, [`validation`] the issue lists validators emit (read by
//! their shape), [`stdio`] stdio records. The phrases are data
//! (`rules/phrases.rules`, matched by [`crate::judge::rules`]). `decide.rs` holds the order of
//! questions and `verdict.rs` the verdict and the builder every part writes into.
//!
//! May import: `vocabulary`, `decode`, and `judge`'s rules. This file only declares and re-exports;
//! the files import each other by name, never this one.

mod decide;
mod frame;
mod prose;
mod request;
mod result;
mod status;
mod stdio;
#[cfg(test)]
mod tests;
mod validation;
mod verdict;

pub use decide::classify;
pub(crate) use status::slash_hint;
pub use verdict::{Options, Verdict};
