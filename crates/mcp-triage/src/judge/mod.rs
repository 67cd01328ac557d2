//! Verdicts: what one exchange means (`classify`, with the phrase rules as data), what the spec says
//! of it (`spec`), what an agent should do (`advice`, a table apart from detection), one exchange's
//! assessment, an agent's call judged from what its client library handed it (`outcome`, with the
//! client libraries' rules as data in `library_rules`), a request that got no answer worded by
//! what its shell saw (`unreached`), and a run's summary and score.
//!
//! May import: `vocabulary`, `decode`.

pub(crate) mod advice;
pub(crate) mod assess;
pub(crate) mod classify;
pub(crate) mod library_rules;
pub(crate) mod model_lines;
pub(crate) mod outcome;
pub(crate) mod rules;
pub(crate) mod server_advice;
pub(crate) mod spec;
pub(crate) mod summary;
pub(crate) mod unreached;
