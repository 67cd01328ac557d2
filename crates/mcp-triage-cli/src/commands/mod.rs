//! The commands that run probes: `mcp-triage probe` (`probe`: reads the command line, picks the
//! transport; `oauth`: its `--oauth` sign-in) and `mcp-triage replay` (`replay`: a recording
//! driven through the same run), `mcp-triage diff` (`diff`: two runs compared), and `mcp-triage census` (`census`: a list of
//! servers, politely, one line each).
//!
//! May import: `run`, `transports`. Its files import each other by name, never this one.

pub(crate) mod census;
pub(crate) mod diff;
pub(crate) mod oauth;
pub(crate) mod probe;
pub(crate) mod replay;
