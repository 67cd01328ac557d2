//! Two runs compared probe by probe: what changed in each probe's verdict (channel, cause, what
//! decided it, the kinds of evidence, whether structure tells it apart from the other failures, the
//! spec verdict, the agent's action) and in the score, each change judged better, worse or neutral
//! by one ordering ([`ORDERING`], documented in docs/baselines.md). Runs are read as
//! share payloads, whatever carried them: a share link of any supported version, a baseline file
//! (`mcp-triage-baseline/1`: the payload as JSON) or a JSON report (its `baseline` field). Runs of
//! different endpoints, protocol versions or plans are still compared, with those differences said
//! first. The result is a view every surface renders as it is ([`Comparison`]).
//!
//! The files: `model` holds what a comparison is and the ordering; this one compares; `baseline`
//! reads a run from what a user hands in and writes baseline files; `render` draws a comparison as
//! text, Markdown, JSON and JUnit cases.
//!
//! May import: vocabulary, judge, and output's share and export.

mod baseline;
mod model;
mod render;

pub use baseline::{BASELINE_FORMAT, MAX_RUN_FILE, baseline_json, read_run, read_shared_run};
pub use model::{Change, Comparison, DIFF_FORMAT, Field, FieldChange, ORDERING, RowComparison};

use crate::judge::spec::Conformance;
use crate::judge::summary::{shape_of, structure_differs};
use crate::output::share::{Share, ShareRow};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy};

/// A failure probe, and for each other failure probe it was judged against whether structure
/// tells them apart.
type Apart = (String, Vec<(String, bool)>);

/// What each failure probe provokes.
fn expected_cause(step: &str) -> Option<Cause> {
    match step {
        "A" => Some(Cause::UnknownTool),
        "B" => Some(Cause::InvalidArguments),
        "C" => Some(Cause::ToolExecution),
        "D" => Some(Cause::None),
        _ => None,
    }
}

fn is_failure_probe(step: &str) -> bool {
    matches!(step, "A" | "B" | "C")
}

fn ran(row: &ShareRow) -> bool {
    row.stopped.is_none() && row.skipped.is_none()
}

/// A row's verdict in one line: `tool_error · unknown_tool · text · deviates`.
fn line_of(row: Option<&ShareRow>) -> String {
    let Some(r) = row else {
        return "-".into();
    };
    if let Some(why) = r.stopped.as_deref() {
        return format!("not answered ({why})");
    }
    if r.skipped.is_some() {
        return "not run".into();
    }
    let mut line = format!("{} · {} · {}", r.channel, r.cause, r.decided_by);
    if let Some((conformance, ..)) = &r.spec {
        line.push_str(" · ");
        line.push_str(conformance);
    }
    line
}

/// How a row's answer arrived, in words ("a JSON-RPC -32602 error").
fn arrival(row: &ShareRow) -> String {
    let channel = Channel::parse(&row.channel).unwrap_or(Channel::Malformed);
    let cause = Cause::parse(&row.cause).unwrap_or(Cause::Unknown);
    shape_of(channel, row.code, row.status, cause)
}

fn evidence_kinds(row: &ShareRow) -> String {
    let text = row.evidence.iter().any(|(_, matched)| matched.is_some());
    let structure = row.evidence.iter().any(|(_, matched)| matched.is_none());
    match (structure, text) {
        (true, true) => "structure+text",
        (true, false) => "structure",
        (false, true) => "text",
        (false, false) => "none",
    }
    .into()
}

/// The rank of what decided a cause: structure above text above the probe's intent alone.
fn decided_rank(d: &str) -> Option<u8> {
    match DecidedBy::parse(d)? {
        DecidedBy::Structure => Some(2),
        DecidedBy::Text => Some(1),
        DecidedBy::Intent => Some(0),
    }
}

fn conformance_rank(spec: Option<&(String, String, String, String)>) -> Option<u8> {
    match Conformance::parse(&spec?.0)? {
        Conformance::Conforms => Some(1),
        Conformance::Deviates => Some(0),
        Conformance::NotApplicable => None,
    }
}

fn by_rank(before: Option<u8>, after: Option<u8>) -> Change {
    match (before, after) {
        (Some(b), Some(a)) if a > b => Change::Better,
        (Some(b), Some(a)) if a < b => Change::Worse,
        _ => Change::Neutral,
    }
}

/// Reaching the wanted value is better, leaving it worse, anything else neutral.
fn towards(before: &str, after: &str, wanted: Option<&str>) -> Change {
    match wanted {
        Some(w) if after == w && before != w => Change::Better,
        Some(w) if before == w && after != w => Change::Worse,
        _ => Change::Neutral,
    }
}

/// For each failure probe of a run: the other failure probes it was judged against (both ran) and
/// how many of those structure alone tells it from.
fn told_apart(run: &Share) -> Vec<Apart> {
    let probes: Vec<&ShareRow> = run
        .rows
        .iter()
        .filter(|r| is_failure_probe(&r.step) && ran(r))
        .collect();
    probes
        .iter()
        .map(|p| {
            let others = probes
                .iter()
                .filter(|q| q.step != p.step)
                .map(|q| {
                    let differ = structure_differs(
                        (Channel::parse(&p.channel), p.code, p.status),
                        (Channel::parse(&q.channel), q.code, q.status),
                    );
                    (q.step.clone(), differ)
                })
                .collect();
            (p.step.clone(), others)
        })
        .collect()
}

fn told_apart_change(step: &str, before: &[Apart], after: &[Apart]) -> Option<FieldChange> {
    let find = |run: &[Apart]| run.iter().find(|(s, _)| s == step).map(|(_, o)| o.clone());
    let (b, a) = (find(before)?, find(after)?);
    // Only the pairs judged on both sides.
    let both: Vec<(&String, bool, bool)> = b
        .iter()
        .filter_map(|(q, db)| a.iter().find(|(r, _)| r == q).map(|(_, da)| (q, *db, *da)))
        .collect();
    let count = |pick: fn(&(&String, bool, bool)) -> bool| both.iter().filter(|x| pick(x)).count();
    let (nb, na) = (count(|x| x.1), count(|x| x.2));
    if nb == na {
        return None;
    }
    let of = |n: usize| format!("{n} of {}", both.len());
    Some(FieldChange {
        field: Field::ToldApart,
        before: of(nb),
        after: of(na),
        change: if na > nb {
            Change::Better
        } else {
            Change::Worse
        },
    })
}

fn overall(changes: &[FieldChange]) -> Change {
    let better = changes.iter().any(|c| c.change == Change::Better);
    let worse = changes.iter().any(|c| c.change == Change::Worse);
    match (better, worse) {
        (true, true) => Change::Mixed,
        (true, false) => Change::Better,
        (false, true) => Change::Worse,
        (false, false) => Change::Neutral,
    }
}

fn compare_row(
    step: &str,
    before: Option<&ShareRow>,
    after: Option<&ShareRow>,
    apart: (&[Apart], &[Apart]),
) -> RowComparison {
    let mut changes = Vec::new();
    let mut field = |field: Field, b: String, a: String, change: Change| {
        if b != a {
            changes.push(FieldChange {
                field,
                before: b,
                after: a,
                change,
            });
        }
    };
    match (before, after) {
        (Some(b), Some(a)) if ran(b) && ran(a) => {
            let failure = is_failure_probe(step);
            let wanted = expected_cause(step);
            field(
                Field::Channel,
                b.channel.clone(),
                a.channel.clone(),
                Change::Neutral,
            );
            field(
                Field::Cause,
                b.cause.clone(),
                a.cause.clone(),
                towards(&b.cause, &a.cause, wanted.map(Cause::as_str)),
            );
            field(
                Field::DecidedBy,
                b.decided_by.clone(),
                a.decided_by.clone(),
                if failure {
                    by_rank(decided_rank(&b.decided_by), decided_rank(&a.decided_by))
                } else {
                    Change::Neutral
                },
            );
            field(
                Field::Evidence,
                evidence_kinds(b),
                evidence_kinds(a),
                Change::Neutral,
            );
            let conformance = |r: &ShareRow| {
                r.spec
                    .as_ref()
                    .map(|s| s.0.clone())
                    .unwrap_or_else(|| "-".into())
            };
            field(
                Field::Spec,
                conformance(b),
                conformance(a),
                by_rank(
                    conformance_rank(b.spec.as_ref()),
                    conformance_rank(a.spec.as_ref()),
                ),
            );
            // The action follows the cause (the advice table): judged there, shown here.
            field(
                Field::Action,
                b.action.clone(),
                a.action.clone(),
                Change::Neutral,
            );
            if failure && let Some(c) = told_apart_change(step, apart.0, apart.1) {
                changes.push(c);
            }
        }
        (b, a) => {
            let said = |r: Option<&ShareRow>| match r {
                None => "absent".to_string(),
                Some(r) if ran(r) => "answered".to_string(),
                Some(r) => line_of(Some(r)),
            };
            field(Field::Ran, said(b), said(a), Change::Neutral);
        }
    }
    changes.sort_by_key(|c| c.field);
    RowComparison {
        step: step.to_string(),
        title: crate::vocabulary::step::Step::title_of_id(step).to_string(),
        before: line_of(before),
        after: line_of(after),
        overall: overall(&changes),
        changes,
    }
}

fn score_text(run: &Share) -> String {
    match (run.score, run.pairs) {
        (Some(s), Some(p)) => format!("{s} of {p}"),
        (Some(s), None) => format!("{s} of 3"),
        _ => "n/a".into(),
    }
}

fn score_change(before: &Share, after: &Share) -> Change {
    match (before.score, before.pairs, after.score, after.pairs) {
        (Some(sb), pb, Some(sa), pa) if pb == pa => by_rank(Some(sb), Some(sa)),
        _ => Change::Neutral,
    }
}

/// What differs between the runs themselves, said before any verdict.
fn context(before: &Share, after: &Share) -> Vec<String> {
    let mut out = Vec::new();
    if before.endpoint != after.endpoint {
        out.push(format!(
            "Different endpoints: {} → {}.",
            before.endpoint, after.endpoint
        ));
    }
    if before.version != after.version {
        let v = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
        out.push(format!(
            "Different protocol versions: {} → {} (each run's spec verdicts are judged by its own version).",
            v(&before.version),
            v(&after.version)
        ));
    }
    let steps = |run: &Share| run.rows.iter().map(|r| r.step.clone()).collect::<Vec<_>>();
    let (sb, sa) = (steps(before), steps(after));
    let only = |x: &[String], y: &[String]| {
        x.iter()
            .filter(|s| !y.contains(s))
            .cloned()
            .collect::<Vec<_>>()
    };
    let (only_before, only_after) = (only(&sb, &sa), only(&sa, &sb));
    if !only_before.is_empty() || !only_after.is_empty() {
        let list = |l: &[String]| {
            if l.is_empty() {
                "none".to_string()
            } else {
                l.join(", ")
            }
        };
        out.push(format!(
            "Different plans: only before: {}; only after: {}.",
            list(&only_before),
            list(&only_after)
        ));
    }
    if before.server != after.server {
        let s = |x: &Option<(String, String)>| {
            x.as_ref()
                .map(|(n, v)| format!("{n} {v}"))
                .unwrap_or_else(|| "unknown".into())
        };
        out.push(format!(
            "Different servers: {} → {}.",
            s(&before.server),
            s(&after.server)
        ));
    }
    out
}

/// The one sentence first: each probe that got better or worse, then the score.
fn summary(rows: &[RowComparison], after: &Share, score: (&str, &str)) -> String {
    let mut parts = Vec::new();
    for row in rows
        .iter()
        .filter(|r| matches!(r.overall, Change::Better | Change::Worse | Change::Mixed))
    {
        let new_row = after.rows.iter().find(|r| r.step == row.step);
        let apart = row.changes.iter().find(|c| c.field == Field::ToldApart);
        let lead = match new_row {
            Some(r) if row.changes.iter().any(|c| c.field == Field::Channel) => {
                Some(format!("{} now arrives as {}", row.step, arrival(r)))
            }
            Some(r) if row.changes.iter().any(|c| c.field == Field::Cause) => {
                Some(format!("{} is now read as {}", row.step, r.cause))
            }
            _ => None,
        };
        let apart = match apart.map(|c| c.change) {
            Some(Change::Better) => Some("told apart by structure"),
            Some(Change::Worse) => Some("no longer told apart by structure"),
            _ => None,
        };
        let mut part = match (lead, apart) {
            (Some(lead), Some(apart)) => format!("{lead}: {apart}"),
            (Some(lead), None) => lead,
            (None, Some("told apart by structure")) => {
                format!("{} is now told apart by structure", row.step)
            }
            (None, Some(apart)) => format!("{} is {apart}", row.step),
            (None, None) => format!("{} changed", row.step),
        };
        let worse: Vec<String> = row
            .changes
            .iter()
            .filter(|c| c.change == Change::Worse && c.field != Field::ToldApart)
            .map(|c| format!("{} {} → {}", c.field, c.before, c.after))
            .collect();
        if !worse.is_empty() {
            part.push_str(&format!(" (worse: {})", worse.join(", ")));
        }
        parts.push(part);
    }
    let score = if score.0 == score.1 {
        format!("Score {} as before.", score.1)
    } else {
        format!("Score {} → {}.", score.0, score.1)
    };
    if parts.is_empty() {
        format!("No probe got better or worse. {score}")
    } else {
        format!("{}. {score}", parts.join("; "))
    }
}

/// Compares two runs: `before` (the baseline) and `after`.
pub fn compare(before: &Share, after: &Share) -> Comparison {
    let (ab, aa) = (told_apart(before), told_apart(after));
    // Every step of either run in card order, then any other (a run's rows are in the order its
    // answers came, which differs between runs).
    let all = || {
        after
            .rows
            .iter()
            .chain(&before.rows)
            .map(|r| r.step.as_str())
    };
    let mut steps: Vec<&str> = crate::vocabulary::step::Step::CARDS
        .iter()
        .filter_map(|s| s.id())
        .filter(|id| all().any(|s| s == *id))
        .collect();
    for step in all() {
        if !steps.contains(&step) {
            steps.push(step);
        }
    }
    let rows: Vec<RowComparison> = steps
        .iter()
        .map(|step| {
            let find = |run: &Share| run.rows.iter().find(|r| r.step == *step).cloned();
            compare_row(
                step,
                find(before).as_ref(),
                find(after).as_ref(),
                (&ab, &aa),
            )
        })
        .collect();
    let (score_before, score_after) = (score_text(before), score_text(after));
    let score_change = score_change(before, after);
    let count = |want: Change| {
        rows.iter()
            .flat_map(|r| &r.changes)
            .filter(|c| c.change == want)
            .count()
            + usize::from(score_change == want)
    };
    Comparison {
        format: DIFF_FORMAT,
        context: context(before, after),
        summary: summary(&rows, after, (&score_before, &score_after)),
        better: count(Change::Better),
        worse: count(Change::Worse),
        score_before,
        score_after,
        score_change,
        rows,
    }
}
