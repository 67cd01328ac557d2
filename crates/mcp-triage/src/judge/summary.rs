//! The run summary: can an agent tell the three failures apart by structure alone (the
//! distinguishability score, 0–3), and the finding in one sentence.

use serde::Serialize;

use crate::judge::classify::Verdict;
use crate::vocabulary::cause::{Channel, StopReason};

/// One pair of probes and whether structure separates them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pair {
    /// The pair, e.g. `A,B`.
    pub pair: &'static str,
    /// True when a structured field differs.
    pub distinct: bool,
    /// The structured fields that differ (`channel`, `jsonrpc_code`, `http_status`).
    pub by: Vec<&'static str>,
}

/// The summary of A, B and C.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunSummary {
    /// How many of the judged pairs differ by structure alone; `None` when no pair was judged.
    pub score: Option<u8>,
    /// How many of (A,B), (A,C), (B,C) were judged: both probes answered (read to their end).
    pub judged: u8,
    /// Each pair that could be judged.
    pub pairs: Vec<Pair>,
    /// The finding in one sentence.
    pub finding: String,
}

/// What structure tells two answers apart by: (channel, JSON-RPC code, HTTP status) each.
type Structure<C> = (C, Option<i64>, Option<u16>);

fn differences_of<C: PartialEq>(x: Structure<C>, y: Structure<C>) -> Vec<&'static str> {
    let mut by = Vec::new();
    if x.0 != y.0 {
        by.push("channel");
    }
    if x.1 != y.1 {
        by.push("jsonrpc_code");
    }
    if x.2 != y.2 {
        by.push("http_status");
    }
    by
}

fn differences(x: &Verdict, y: &Verdict) -> Vec<&'static str> {
    differences_of(
        (x.channel, x.jsonrpc_code, x.http_status),
        (y.channel, y.jsonrpc_code, y.http_status),
    )
}

/// Whether structure alone tells two answers apart (the score's rule, for a comparison of runs
/// read back from their share payloads).
pub(crate) fn structure_differs(
    x: Structure<Option<Channel>>,
    y: Structure<Option<Channel>>,
) -> bool {
    !differences_of(x, y).is_empty()
}

/// How an answer arrived, in words ("isError: true", "JSON-RPC error -32602", "HTTP 401").
pub(crate) fn shape_of(
    channel: Channel,
    code: Option<i64>,
    status: Option<u16>,
    cause: crate::vocabulary::cause::Cause,
) -> String {
    match (channel, code) {
        (Channel::ToolError, _) => "isError: true".into(),
        (Channel::JsonrpcError, Some(code)) => format!("JSON-RPC error {code}"),
        (Channel::Http, Some(code)) => {
            format!("HTTP {} with JSON-RPC error {code}", status.unwrap_or(0))
        }
        (Channel::Http, None) => format!("HTTP {}", status.unwrap_or(0)),
        (Channel::Success, _) => "a successful result".into(),
        (Channel::Network, _) if cause == crate::vocabulary::cause::Cause::ServerExited => {
            "a crash of the server process".into()
        }
        (channel, _) => channel.label(),
    }
}

fn shape(v: &Verdict) -> String {
    shape_of(v.channel, v.jsonrpc_code, v.http_status, v.cause)
}

const NAMES: [&str; 3] = ["an unknown tool", "bad arguments", "a thrown exception"];

/// "probe B", "probes A and C", "probes A, B and C".
fn probe_list(names: &[&str]) -> String {
    match names {
        [one] => format!("probe {one}"),
        [init @ .., last] => format!("probes {} and {last}", init.join(", ")),
        [] => String::new(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Why a probe has no verdict to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    /// It was not sent (skipped, or the run ended first).
    NotRun,
    /// It was sent but not answered to its end.
    Stopped(StopReason),
}

/// Summarises probes A, B and C (any may be missing: skipped, or not provoked).
pub fn summarize(a: Option<&Verdict>, b: Option<&Verdict>, c: Option<&Verdict>) -> RunSummary {
    summarize_answered([a, b, c].map(|v| v.ok_or(Missing::NotRun)))
}

/// Summarises A, B and C from what was answered: a probe cut by a deadline, the size cap, Cancel, a
/// redirect or a blocked request says what stopped it, and is never read as the server's answer.
pub(crate) fn summarize_answered(outcomes: [Result<&Verdict, Missing>; 3]) -> RunSummary {
    let probes = outcomes.map(Result::ok);
    let mut pairs = Vec::new();
    for (pair, i, j) in [("A,B", 0, 1), ("A,C", 0, 2), ("B,C", 1, 2)] {
        if let (Some(x), Some(y)) = (probes[i], probes[j]) {
            let by = differences(x, y);
            pairs.push(Pair {
                pair,
                distinct: !by.is_empty(),
                by,
            });
        }
    }
    let [Some(a), Some(b), Some(c)] = probes else {
        use crate::vocabulary::probe::ProbeName;
        let names = [ProbeName::A, ProbeName::B, ProbeName::C];
        let pick = |want: &dyn Fn(&Missing) -> bool| -> Vec<&str> {
            names
                .iter()
                .zip(&outcomes)
                .filter(|(_, o)| o.as_ref().err().is_some_and(want))
                .map(|(n, _)| n.as_str())
                .collect()
        };
        let not_run = pick(&|m| *m == Missing::NotRun);
        // Stopped probes grouped by what stopped them, in probe order.
        let mut reasons: Vec<StopReason> = Vec::new();
        for o in &outcomes {
            if let Err(Missing::Stopped(why)) = o
                && !reasons.contains(why)
            {
                reasons.push(*why);
            }
        }
        let mut parts = Vec::new();
        for why in &reasons {
            let these = pick(&|m| *m == Missing::Stopped(*why));
            if !these.is_empty() {
                parts.push(format!(
                    "{} not answered: {}",
                    probe_list(&these),
                    why.describe()
                ));
            }
        }
        if !not_run.is_empty() {
            parts.push(format!("{} did not run", probe_list(&not_run)));
        }
        let judged = pairs.len() as u8;
        return RunSummary {
            score: (judged > 0).then(|| pairs.iter().filter(|p| p.distinct).count() as u8),
            judged,
            pairs,
            finding: format!(
                "{}, so the three failures cannot all be compared.",
                capitalise(&parts.join("; "))
            ),
        };
    };
    let score = pairs.iter().filter(|p| p.distinct).count() as u8;
    let shapes = [shape(a), shape(b), shape(c)];
    let finding = match score {
        0 => {
            let text = if a.channel == Channel::ToolError {
                "text"
            } else {
                "message"
            };
            format!(
                "An unknown tool, bad arguments and a thrown exception all arrive as {}; only the {text} tells them apart",
                shapes[0]
            )
        }
        3 => format!(
            "An unknown tool, bad arguments and a thrown exception arrive three different ways ({} / {} / {}): structure alone tells them apart",
            shapes[0], shapes[1], shapes[2]
        ),
        _ => {
            // Equal structure is an equivalence: if two pairs matched, the third would too. So a
            // score that is neither 0 nor 3 is 2, with exactly one pair alike.
            let (i, j, k) = match pairs.iter().find(|p| !p.distinct).map(|p| p.pair) {
                Some("A,B") => (0, 1, 2),
                Some("A,C") => (0, 2, 1),
                _ => (1, 2, 0),
            };
            format!(
                "{} and {} both arrive as {}, so only the text tells them apart; {} arrives as {}",
                capitalise(NAMES[i]),
                NAMES[j],
                shapes[i],
                NAMES[k],
                shapes[k]
            )
        }
    };
    RunSummary {
        score: Some(score),
        judged: 3,
        pairs,
        finding: format!("{finding}."),
    }
}

/// A refusal at connect, in words: no token sent, a token refused, a scope missing, or a caller
/// refused; the challenge's fields are the card's evidence (the headline quotes none of them).
fn auth_headline(status: u16, v: &Verdict, ex: &crate::vocabulary::exchange::Exchange) -> String {
    use crate::vocabulary::exchange::Vantage;
    let sent_token = ex
        .request
        .headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
    let error = v.challenge.as_ref().and_then(|c| c.param("error"));
    let scope = v
        .challenge
        .as_ref()
        .and_then(|c| c.param("scope"))
        .map(|s| {
            format!(
                "; it asks for \"{}\"",
                s.chars().take(120).collect::<String>()
            )
        })
        .unwrap_or_default();
    let give_one = match ex.vantage {
        Vantage::Browser => "paste one in the Token field, or sign in",
        Vantage::Direct => "pass one with --token-env VAR, or sign in with --oauth",
    };
    match (status, sent_token, error) {
        (403, _, Some("insufficient_scope")) => format!(
            "The token lacks a scope the server wants (403 insufficient_scope{scope}): use a token granted that scope."
        ),
        (401, false, _) => format!(
            "The server needs a token (401) and this run sent none: {give_one}."
        ),
        (401, true, _) => format!(
            "The server refused the token (401{}): it is expired, revoked, or made for another server.",
            error.map(|e| format!(" {}", e.chars().take(40).collect::<String>())).unwrap_or_default()
        ),
        (_, _, _) => match ex.vantage {
            Vantage::Browser => "The server refused this caller (403): the token is valid but not allowed, or this page's Origin is refused.".into(),
            Vantage::Direct => "The server refused this caller (403): the token is valid but not allowed here, or the Origin sent (--origin) is refused.".into(),
        },
    }
}

/// The score as people read it: "k of m pairs", or "n/a" when no pair was judged. A CLI's
/// `--fail-under N` compares k with N, and "n/a" is below any N ≥ 1.
pub fn score_text(score: Option<u8>, judged: Option<u8>) -> String {
    match (score, judged) {
        (Some(k), Some(m)) if m > 0 => format!("{k} of {m} pairs"),
        _ => "n/a".into(),
    }
}

/// The first sentence of a report: what happened, cause first. When the connection failed, the
/// user cancelled or the run's deadline passed, that is the headline (never a comparison of answers
/// that did not come); otherwise it is the finding.
pub(crate) fn headline(
    connect: Option<(&Verdict, &crate::vocabulary::exchange::Exchange)>,
    connected: bool,
    ended: Option<crate::vocabulary::cause::RunEnd>,
    summary: &RunSummary,
) -> String {
    use crate::vocabulary::cause::RunEnd;
    if !connected && let Some((v, ex)) = connect {
        let method = v.request_method.as_deref().unwrap_or("initialize");
        if let Some(u) = crate::judge::unreached::Unreached::of(ex) {
            return u.sentence(ex, method);
        }
        return match (ex.stop_reason(), v.http_status) {
            (Some(StopReason::Cancelled), _) => {
                format!("You cancelled the run before the server answered {method}.")
            }
            (Some(why), _) => {
                let hint = crate::judge::classify::slash_hint(ex)
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default();
                format!(
                    "The server's answer to {method} was not read: {}{hint}.",
                    why.describe()
                )
            }
            (None, Some(status @ (401 | 403))) => auth_headline(status, v, ex),
            (None, _) if v.cause == crate::vocabulary::cause::Cause::ServerExited => format!(
                "The server process exited before it answered {method}, so no probe could run (its last stderr lines are in the report)."
            ),
            (None, Some(status)) if status >= 300 => {
                format!("The server answered {method} with HTTP {status}, so no probe could run.")
            }
            (None, _) => format!(
                "The server's answer to {method} could not be used ({}), so no probe could run.",
                v.cause.label()
            ),
        };
    }
    // A revision the server refused at connect stops everything after it: that is the headline,
    // with what to do (the probes that ran were refused the same way).
    if let Some((v, ex)) = connect
        && v.cause == crate::vocabulary::cause::Cause::ProtocolVersionUnsupported
    {
        let method = v.request_method.as_deref().unwrap_or("initialize");
        let revision = ex
            .request
            .header(crate::vocabulary::header::PROTOCOL_VERSION)
            .map_or_else(
                || "this protocol revision".to_string(),
                |r| format!("protocol revision {r}"),
            );
        let status = v
            .http_status
            .map(|s| format!(" (HTTP {s})"))
            .unwrap_or_default();
        // The released revisions its answer names (`supported versions: …`, `data.supported`),
        // newest first: the era to choose.
        let said = ex
            .response
            .as_ref()
            .and_then(|r| r.body.as_deref())
            .unwrap_or("");
        let mut named: Vec<&str> = crate::vocabulary::protocol::ProtocolVersion::ALL
            .iter()
            .rev()
            .map(|v| v.as_str())
            .filter(|k| said.contains(k) && !revision.ends_with(k))
            .take(3)
            .collect();
        let serves = match named.len() {
            0 => "Choose an era it serves".to_string(),
            1 => format!("It names {}: choose that era", named[0]),
            _ => {
                let last = named.pop().unwrap_or_default();
                format!(
                    "It names {} and {last}: choose one of those eras",
                    named.join(", ")
                )
            }
        };
        return format!(
            "The server does not serve {revision}: it refused {method}{status}. {serves}, or Auto, and run again."
        );
    }
    // Lead with how the run ended; the finding's own mention of that reason is then said once.
    let lead = match ended {
        Some(RunEnd::Cancelled) => Some((StopReason::Cancelled, "You cancelled the run.")),
        Some(RunEnd::DeadlinePassed) => Some((StopReason::Deadline, "The run's deadline passed.")),
        Some(RunEnd::Interrupted) => Some((
            StopReason::Interrupted,
            "The run was interrupted before it finished (a signal stopped it).",
        )),
        _ => None,
    };
    match lead {
        Some((why, lead)) => {
            let said_once = summary
                .finding
                .replace(&format!(": {}", why.describe()), "");
            format!("{lead} {said_once}")
        }
        None => summary.finding.clone(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::vocabulary::cause::{Cause, DecidedBy};

    fn v(channel: Channel, code: Option<i64>, status: u16) -> Verdict {
        Verdict {
            channel,
            cause: Cause::Unknown,
            decided_by: DecidedBy::Structure,
            jsonrpc_code: code,
            evidence: vec![],
            flags: vec![],
            http_status: Some(status),
            body_kind: None,
            problems: vec![],
            message: None,
            request_method: None,
            tool_name: None,
            challenge: None,
            unrelated_messages: 0,
            server_requests: vec![],
            response_matched: true,
            rule: None,
            fired: vec![],
        }
    }

    #[test]
    fn seed_scores_zero_with_the_seed_sentence() {
        let t = v(Channel::ToolError, None, 200);
        let s = summarize(Some(&t), Some(&t), Some(&t));
        assert_eq!(s.score, Some(0));
        assert_eq!(
            s.finding,
            "An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart."
        );
    }

    #[test]
    fn old_ts_scores_two() {
        let frame = v(Channel::JsonrpcError, Some(-32602), 200);
        let tool = v(Channel::ToolError, None, 200);
        let s = summarize(Some(&frame), Some(&frame), Some(&tool));
        assert_eq!(s.score, Some(2));
        assert!(
            s.finding.starts_with(
                "An unknown tool and bad arguments both arrive as JSON-RPC error -32602"
            ),
            "{}",
            s.finding
        );
        assert_eq!(s.pairs[1].by, vec!["channel", "jsonrpc_code"]);
    }

    #[test]
    fn all_different_scores_three_and_missing_probes_say_so() {
        let a = v(Channel::JsonrpcError, Some(-32602), 200);
        let b = v(Channel::ToolError, None, 200);
        let c = v(Channel::JsonrpcError, Some(-32603), 200);
        assert_eq!(summarize(Some(&a), Some(&b), Some(&c)).score, Some(3));
        let s = summarize(Some(&a), None, Some(&c));
        // Only (A,C) could be judged: it differs (-32602 against -32603).
        assert_eq!((s.score, s.judged), (Some(1), 1));
        assert_eq!(score_text(s.score, Some(s.judged)), "1 of 1 pairs");
        assert!(s.finding.contains("Probe B did not run"));
        let none = summarize(Some(&a), None, None);
        assert_eq!((none.score, none.judged), (None, 0));
        assert_eq!(score_text(none.score, Some(none.judged)), "n/a");
    }

    #[test]
    fn a_revision_refused_at_connect_is_the_headline_with_what_to_do() {
        let connect = |body: &str| {
            let doc = serde_json::json!({
                "format": "mcp-exchange/1", "vantage": "direct",
                "request": {"method": "POST", "url": "http://127.0.0.1:1/mcp",
                    "headers": [["Content-Type", "application/json"], ["Accept", "application/json, text/event-stream"], ["MCP-Protocol-Version", "2026-07-28"]],
                    "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}"},
                "response": {"status": 400, "headers": [["content-type", "text/plain"]], "body": body}
            });
            let ex = crate::vocabulary::exchange::Exchange::from_json(doc.to_string().as_bytes())
                .unwrap();
            let verdict = crate::judge::classify::classify(&ex, &Default::default());
            (verdict, ex)
        };
        let t = v(Channel::ToolError, None, 200);
        let s = summarize(Some(&t), None, None);
        let (verdict, ex) = connect("Bad Request: Unsupported protocol version: 2026-07-28");
        assert_eq!(
            headline(Some((&verdict, &ex)), true, None, &s),
            "The server does not serve protocol revision 2026-07-28: it refused server/discover (HTTP 400). Choose an era it serves, or Auto, and run again."
        );
        // The revisions its words name, newest first (the TypeScript SDK lists them).
        let (verdict, ex) = connect(
            "Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)",
        );
        assert_eq!(
            headline(Some((&verdict, &ex)), true, None, &s),
            "The server does not serve protocol revision 2026-07-28: it refused server/discover (HTTP 400). It names 2025-11-25, 2025-06-18 and 2025-03-26: choose one of those eras, or Auto, and run again."
        );
        // The control: another refusal at connect leaves the finding as the headline.
        let (verdict, ex) = connect("Bad Request: something else");
        assert_eq!(headline(Some((&verdict, &ex)), true, None, &s), s.finding);
    }

    #[test]
    fn a_finding_never_nests_brackets_whatever_stopped_a_probe() {
        let depth = |text: &str| {
            let (mut now, mut most) = (0i32, 0i32);
            for c in text.chars() {
                now += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                most = most.max(now);
            }
            most
        };
        let t = v(Channel::ToolError, None, 200);
        for why in StopReason::ALL {
            let s = summarize_answered([Ok(&t), Err(Missing::Stopped(*why)), Err(Missing::NotRun)]);
            assert!(depth(&s.finding) <= 1, "{why:?}: {}", s.finding);
            assert!(s.finding.contains(why.describe()), "{}", s.finding);
        }
        // The control: the reason in brackets, as findings were worded before, nests.
        let old = format!(
            "Probe B not answered ({})",
            StopReason::ConnectionLost.describe()
        );
        assert_eq!(depth(&old), 2);
    }
}
