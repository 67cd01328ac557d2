//! The words every stage shares, and nothing else: a verdict's vocabulary (channel, cause, evidence,
//! flags, how a run ended), the limits, header names and lookups, the `mcp-exchange/1` record, the
//! problem a user's input can have, and the steps of a run with the request a shell is asked to send.
//!
//! May import: nothing of this crate outside this folder. Everything else imports from here.

pub(crate) mod auth_step;
pub(crate) mod cause;
pub(crate) mod exchange;
pub(crate) mod header;
pub(crate) mod labelled;
pub(crate) mod limits;
pub(crate) mod percent;
pub(crate) mod probe;
pub(crate) mod problem;
pub(crate) mod protocol;
pub(crate) mod seeded_bug;
pub(crate) mod step;
