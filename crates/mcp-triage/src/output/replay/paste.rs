//! Pastes: a recording replayed, or captures classified one by one, and the endpoint a recorded
//! report can be opened with.

use super::outcome::ReplayProblem;
use super::recording::read_captures;
use super::replaying::replay_recording;
use crate::run::engine::RunReport;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::problem::PasteProblemId;
use crate::vocabulary::problem::{Problem, ProblemId};
use crate::vocabulary::seeded_bug::{self, SeededBug};

/// A paste as the page shows it: the report, and a sentence on where it came from.
#[derive(Debug, Clone)]
pub struct Pasted {
    /// The report.
    pub report: RunReport,
    /// Where the report came from, for people.
    pub source: String,
}

/// What a paste becomes, decided once: two or more recordings that open a run (an `initialize` or
/// `server/discover` among them) are replayed through the engine, as `mcp-triage replay` does;
/// anything else (one exchange, a raw HTTP response) is classified exchange by exchange.
pub fn from_paste(capture: &str, request_body: &str) -> Result<Pasted, Problem> {
    let trimmed = capture.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let recording = read_captures(trimmed)?;
        // One exchange is classified as it is, even an initialize: a run needs more than one.
        let run = if recording.exchanges.len() > 1 {
            replay_recording(&recording, None, crate::secrets::redact::Secrets::default())
        } else {
            Err(ReplayProblem::NoConnect)
        };
        match run {
            Ok(r) => {
                return Ok(Pasted {
                    source: format!(
                        "Pasted recording, replayed through the engine in this page: {}",
                        r.summary()
                    ),
                    report: r.report,
                });
            }
            Err(ReplayProblem::NoConnect) => {}
            Err(other) => return Err(other.into()),
        }
    }
    let list = exchanges_of_paste(capture, request_body)?;
    let endpoint = list
        .first()
        .map(|e| e.request.url.clone())
        .unwrap_or_default();
    Ok(Pasted {
        report: RunReport::from_exchanges(&endpoint, list),
        source: "Pasted capture, classified in this page.".into(),
    })
}

/// The endpoint a recorded report can be opened with: the URL, or its origin where a report saved
/// with the path hidden recorded `origin/[path hidden]`.
pub fn openable_endpoint(recorded: &str) -> &str {
    if !recorded.contains("[path hidden]") {
        return recorded;
    }
    recorded
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| recorded[start..].find('/').map(|j| &recorded[..start + j]))
        .unwrap_or(recorded)
}

/// What a user pasted: an `mcp-exchange/1` JSON (one, an array, or a report's records), or a raw HTTP response with the
/// request body they sent (its URL is a placeholder: a paste names no endpoint). Never empty on `Ok`.
pub(crate) fn exchanges_of_paste(
    capture: &str,
    request_body: &str,
) -> Result<Vec<Exchange>, Problem> {
    let trimmed = capture.trim_start();
    let list = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        read_captures(trimmed)?.exchanges
    } else {
        vec![
            crate::vocabulary::exchange::from_raw_http(
                trimmed,
                request_body,
                "https://pasted.invalid/mcp",
            )
            .map_err(|why| Problem::new(ProblemId::Paste(PasteProblemId::NotHttp), why))?,
        ]
    };
    if list.is_empty() && !seeded_bug::is_on(SeededBug::PasteEmpty) {
        return Err(Problem::new(
            ProblemId::Paste(PasteProblemId::Empty),
            "Nothing to classify.",
        ));
    }
    Ok(list)
}
