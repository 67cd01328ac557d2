//! A census: one check over a long list of servers, safe (only what has no side effect: the
//! transport checks, connecting, `tools/list` and probe A, the unknown tool; no token), polite
//! (`polite`) and resumable. `targets` reads and merges the list; the lines it writes are the
//! output's (`output::census`).

pub(crate) mod polite;
pub(crate) mod targets;

use crate::run::consent::ProbeEdit;
use crate::vocabulary::probe::ProbeName;

/// The plan every census target runs: probe A only. B, C and D would call the server's own tools,
/// which a census never does.
pub fn plan() -> Vec<(ProbeName, ProbeEdit)> {
    [ProbeName::B, ProbeName::C, ProbeName::D]
        .into_iter()
        .map(|p| (p, ProbeEdit::Skip))
        .collect()
}

/// The `User-Agent` every census request carries: the tool and its version, and where the
/// operator of a server can reach whoever runs the census.
pub fn user_agent(version: &str, contact: &str) -> String {
    format!("mcp-triage/{version} (census; +{contact})")
}
