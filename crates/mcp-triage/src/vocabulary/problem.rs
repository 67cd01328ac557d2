//! [`Problem`]: what was wrong with something a user handed in — a link, a paste, a plan file, a
//! capture, a run's input. One type for all of them: a stable id tests and tools match, where in
//! the input it is when that is known, and the message every surface shows as it is.

use std::fmt;

use serde::Serialize;

labelled_enum! {
    /// Which problem it is: stable identifiers (a message may be reworded, an id is not).
    ProblemId {
        /// A link longer than any link this tool makes.
        LinkTooLong = "link_too_long",
        /// Not `#r=v1.` … `#r=vN.` followed by data.
        LinkWrongPrefix = "link_wrong_prefix",
        /// A link version this build does not know.
        LinkUnknownVersion = "link_unknown_version",
        /// Not strict base64url.
        LinkBadEncoding = "link_bad_encoding",
        /// Not valid deflate, or too large once inflated.
        LinkBadCompression = "link_bad_compression",
        /// Not the schema of its version, or a field over its caps.
        LinkBadPayload = "link_bad_payload",
        /// Results too large to share as a link.
        LinkTooLargeToShare = "link_too_large_to_share",
        /// A plan file over its size cap.
        PlanTooLarge = "plan_too_large",
        /// Not a plan file's JSON.
        PlanNotAPlan = "plan_not_a_plan",
        /// Another format or version of plan.
        PlanUnknownFormat = "plan_unknown_format",
        /// The same probe twice in a plan.
        PlanDuplicateProbe = "plan_duplicate_probe",
        /// A tool name a plan may not hold.
        PlanBadToolName = "plan_bad_tool_name",
        /// Arguments a plan may not hold.
        PlanBadArguments = "plan_bad_arguments",
        /// A capture that is not JSON.
        CaptureNotJson = "capture_not_json",
        /// A capture in another format.
        CaptureWrongFormat = "capture_wrong_format",
        /// A capture whose JSON is not an `mcp-exchange/1` document.
        CaptureNotAnExchange = "capture_not_an_exchange",
        /// More captures than a replay reads.
        CaptureTooMany = "capture_too_many",
        /// A pasted raw HTTP response that does not read as one.
        PasteNotHttp = "paste_not_http",
        /// Nothing to classify.
        PasteEmpty = "paste_empty",
        /// No recorded exchanges to replay.
        ReplayEmpty = "replay_empty",
        /// Nothing recorded opens a run.
        ReplayNoConnect = "replay_no_connect",
        /// Captures from different runs.
        ReplayMixedRuns = "replay_mixed_runs",
        /// A recorded plan that cannot run against the recorded catalogue.
        ReplayPlan = "replay_plan",
        /// Not a run MCP Triage can compare: no share link, baseline file or JSON report with one.
        RunUnreadable = "run_unreadable",
        /// A run's endpoint that cannot be used (not a URL, cleartext where it may not go…).
        RunEndpoint = "run_endpoint",
        /// A run's token that cannot be sent.
        RunToken = "run_token",
        /// A run's extra header that cannot be sent.
        RunHeader = "run_header",
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
        let p = Problem::of_json(ProblemId::CaptureNotJson, "not JSON: ", &e, text);
        assert_eq!(p.id, ProblemId::CaptureNotJson);
        let at = p.offset.unwrap();
        assert_eq!(&text[at..at + 1], "2", "{p:?}");
        assert!(p.message.starts_with("not JSON: "), "{}", p.message);
    }
}
