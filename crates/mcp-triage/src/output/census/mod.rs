//! What a census writes: one `mcp-triage-census/1` line per target (`line`), what an existing
//! output holds for `--resume` (`resume`), the summary report drawn from the lines (`report`), the lines' JSON Schema (`schema`), and the ecosystem matrix the same renderer draws (`matrix`).

pub(crate) mod line;
pub(crate) mod matrix;
pub(crate) mod report;
pub(crate) mod resume;
pub(crate) mod schema;
