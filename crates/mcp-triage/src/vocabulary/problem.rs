//! [`Problem`]: what was wrong with something a user handed in — a link, a paste, a plan file, a
//! capture, a run's input. One type for all of them: a stable id tests and tools match, where in
//! the input it is when that is known, and the message every surface shows as it is.

use std::fmt;

use serde::Serialize;

labelled_enum! {
    /// A share link that cannot be opened or made ([`ShareError`](crate::share::ShareError)'s ids).
    LinkProblemId {
        /// A link longer than any link this tool makes.
        TooLong = "link_too_long",
        /// Not `#r=v1.` … `#r=vN.` followed by data.
        WrongPrefix = "link_wrong_prefix",
        /// A link version this build does not know.
        UnknownVersion = "link_unknown_version",
        /// Not strict base64url.
        BadEncoding = "link_bad_encoding",
        /// Not valid deflate, or too large once inflated.
        BadCompression = "link_bad_compression",
        /// Not the schema of its version, or a field over its caps.
        BadPayload = "link_bad_payload",
        /// Results too large to share as a link.
        TooLargeToShare = "link_too_large_to_share",
    }
}

labelled_enum! {
    /// A plan file that cannot be used (`PlanProblem`'s ids).
    PlanProblemId {
        /// A plan file over its size cap.
        TooLarge = "plan_too_large",
        /// Not a plan file's JSON.
        NotAPlan = "plan_not_a_plan",
        /// Another format or version of plan.
        UnknownFormat = "plan_unknown_format",
        /// The same probe twice in a plan.
        DuplicateProbe = "plan_duplicate_probe",
        /// A tool name a plan may not hold.
        BadToolName = "plan_bad_tool_name",
        /// Arguments a plan may not hold.
        BadArguments = "plan_bad_arguments",
    }
}

labelled_enum! {
    /// Recordings that cannot be replayed (`ReplayProblem`'s ids).
    ReplayProblemId {
        /// No recorded exchanges to replay.
        Empty = "replay_empty",
        /// More captures than a replay reads.
        TooMany = "capture_too_many",
        /// Nothing recorded opens a run.
        NoConnect = "replay_no_connect",
        /// Captures from different runs.
        MixedRuns = "replay_mixed_runs",
        /// A recorded plan that cannot run against the recorded catalogue.
        Plan = "replay_plan",
    }
}

labelled_enum! {
    /// A capture that is not an exchange (`ExchangeError`'s ids).
    CaptureProblemId {
        /// A capture whose JSON is not an `mcp-exchange/1` document.
        Json = "capture_not_an_exchange",
        /// A capture in another format.
        WrongFormat = "capture_wrong_format",
    }
}

labelled_enum! {
    /// Text handed in that cannot be read at all.
    PasteProblemId {
        /// A capture that is not JSON.
        NotJson = "capture_not_json",
        /// A pasted raw HTTP response that does not read as one.
        NotHttp = "paste_not_http",
        /// Nothing to classify.
        Empty = "paste_empty",
    }
}

labelled_enum! {
    /// A run's input, or a run to compare, that cannot be used.
    RunProblemId {
        /// Not a run MCP Triage can compare: no share link, baseline file or JSON report with one.
        Unreadable = "run_unreadable",
        /// A run's endpoint that cannot be used (not a URL, cleartext where it may not go…).
        Endpoint = "run_endpoint",
        /// A run's token that cannot be sent.
        Token = "run_token",
        /// A run's extra header that cannot be sent.
        Header = "run_header",
    }
}

/// Which problem it is: a stable identifier (a message may be reworded, an id is not), by what
/// was handed in. An error type with data derives its id from its variant
/// (`problem_enum!`), so no id is listed twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemId {
    /// A share link.
    Link(LinkProblemId),
    /// A plan file.
    Plan(PlanProblemId),
    /// Recordings to replay.
    Replay(ReplayProblemId),
    /// A capture file.
    Capture(CaptureProblemId),
    /// Pasted or handed-in text.
    Paste(PasteProblemId),
    /// A run's input, or a run to compare.
    Run(RunProblemId),
}

impl ProblemId {
    /// The stable identifier (`link_too_long`, `run_token`…).
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemId::Link(id) => id.as_str(),
            ProblemId::Plan(id) => id.as_str(),
            ProblemId::Replay(id) => id.as_str(),
            ProblemId::Capture(id) => id.as_str(),
            ProblemId::Paste(id) => id.as_str(),
            ProblemId::Run(id) => id.as_str(),
        }
    }

    /// Every id, group by group.
    pub fn all() -> Vec<ProblemId> {
        let mut all: Vec<ProblemId> = Vec::new();
        all.extend(LinkProblemId::ALL.iter().map(|i| ProblemId::Link(*i)));
        all.extend(PlanProblemId::ALL.iter().map(|i| ProblemId::Plan(*i)));
        all.extend(ReplayProblemId::ALL.iter().map(|i| ProblemId::Replay(*i)));
        all.extend(CaptureProblemId::ALL.iter().map(|i| ProblemId::Capture(*i)));
        all.extend(PasteProblemId::ALL.iter().map(|i| ProblemId::Paste(*i)));
        all.extend(RunProblemId::ALL.iter().map(|i| ProblemId::Run(*i)));
        all
    }

    /// Parses the stable identifier.
    pub fn parse(text: &str) -> Option<ProblemId> {
        ProblemId::all().into_iter().find(|id| id.as_str() == text)
    }
}

impl Serialize for ProblemId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Display for ProblemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What was wrong with a user's input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Which problem.
    pub id: ProblemId,
    /// Where in the input, in bytes, when that is known.
    pub offset: Option<usize>,
    /// What every surface shows.
    pub message: String,
}

impl Problem {
    /// A problem with no position.
    pub(crate) fn new(id: ProblemId, message: impl Into<String>) -> Problem {
        Problem {
            id,
            offset: None,
            message: message.into(),
        }
    }

    /// The same problem, at a byte offset of the input.
    pub(crate) fn at(mut self, offset: usize) -> Problem {
        self.offset = Some(offset);
        self
    }

    /// A JSON parser's complaint about `text`, with its position as a byte offset.
    pub(crate) fn of_json(
        id: ProblemId,
        prefix: &str,
        e: &serde_json::Error,
        text: &str,
    ) -> Problem {
        let p = Problem::new(id, format!("{prefix}{e}"));
        match byte_offset(text, e.line(), e.column()) {
            Some(o) => p.at(o),
            None => p,
        }
    }
}

/// The byte offset of a 1-based line and column (as serde_json counts them: the column is in
/// bytes, and 0 means before the line's first byte).
fn byte_offset(text: &str, line: usize, column: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let offset = start + column.saturating_sub(1);
    (offset <= text.len()).then_some(offset)
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_json_complaint_points_at_its_byte() {
        let text = "{\n  \"a\": 1,\n  \"b\" 2\n}";
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        let p = Problem::of_json(
            ProblemId::Paste(PasteProblemId::NotJson),
            "not JSON: ",
            &e,
            text,
        );
        assert_eq!(p.id.as_str(), "capture_not_json");
        let at = p.offset.unwrap();
        assert_eq!(&text[at..at + 1], "2", "{p:?}");
        assert!(p.message.starts_with("not JSON: "), "{}", p.message);
    }

    #[test]
    fn every_id_is_unique_and_reads_back() {
        let all = ProblemId::all();
        assert_eq!(all.len(), 27);
        let mut ids: Vec<&str> = all.iter().map(|id| id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        for id in &all {
            assert_eq!(ProblemId::parse(id.as_str()), Some(*id));
            assert_eq!(serde_json::to_value(id).unwrap(), id.as_str());
        }
    }
}
