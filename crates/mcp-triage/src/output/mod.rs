//! What leaves a run: the JSON report and the Markdown, JUnit and terminal reports, share links
//! (versioned, allowlisted, withheld where a server's content is not ours to publish), the views
//! every text surface renders, and replays of recordings and pastes, grouped into runs.
//!
//! May import: `vocabulary`, `secrets`, `judge`, `run`.

pub(crate) mod census;
pub(crate) mod compare;
pub(crate) mod curl;
pub(crate) mod export;
pub(crate) mod identifiers;
pub(crate) mod junit;
pub(crate) mod replay;
pub(crate) mod runs;
pub(crate) mod share;
pub(crate) mod terminal;
pub(crate) mod verdict_doc;
pub(crate) mod verdict_text;
pub(crate) mod view;
pub(crate) mod withhold;
