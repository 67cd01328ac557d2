//! A run: the endpoint a user names, the CORS doctor, the tool catalogue and which probe uses which
//! tool, the consent policy (what runs without a person, which plan edits are allowed), plan files,
//! and the engine, a sans-IO state machine that says which request to send next and ends the run.
//!
//! May import: `vocabulary`, `secrets`, `decode`, `judge`.

pub(crate) mod auth;
pub(crate) mod catalogue;
pub(crate) mod census;
pub(crate) mod consent;
pub(crate) mod cors;
pub(crate) mod endpoint;
pub(crate) mod engine;
pub(crate) mod input;
pub(crate) mod plan_file;
