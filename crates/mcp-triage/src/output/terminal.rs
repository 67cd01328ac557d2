//! The terminal report: what the page's summary and cards say, as plain text (no colour, no
//! markup), rendered from the same view model as every other surface.

use crate::output::export::Scrub;
use crate::output::view::{Answer, ReportView, WireView};
use crate::run::endpoint::Endpoint;
use crate::run::engine::RunReport;

/// The terminal report: what the page's summary and cards say, as text (no colour), the endpoint's
/// path and query hidden unless `include_path` (as in every other form).
pub fn text(report: &RunReport, ep: &Endpoint, include_path: bool) -> String {
    let text = render_all(report, ep);
    if include_path {
        text
    } else {
        Scrub::new(ep).apply(&text)
    }
}

/// Lines of a stdio server's stderr tail the text report shows (the JSON report holds all of it).
const STDERR_LINES_SHOWN: usize = 8;

fn render_all(report: &RunReport, ep: &Endpoint) -> String {
    let view = ReportView::for_reading(report, &[]);
    let summary = &view.summary;
    let mut out = String::new();
    // The fix first opens the report: what to change, for which probe, who makes it.
    if let Some(fix) = &summary.fix_first {
        out.push_str(&format!("{}\n", fix.sentence));
        for then in &fix.then {
            out.push_str(&format!("  then {then}\n"));
        }
        out.push('\n');
    }
    out.push_str(&format!("MCP Triage — {}\n\n", ep.url));
    out.push_str(&format!("{}\n\n", summary.headline));
    out.push_str(&format!("{}: {}\n", summary.score_label, summary.score));
    out.push_str(&format!(
        "Server: {} · protocol {}{}\n\n",
        summary.server_text(),
        summary.protocol,
        summary
            .rounds
            .as_deref()
            .map(|r| format!(" · {r}"))
            .unwrap_or_default()
    ));
    for w in &summary.warnings {
        out.push_str(&format!("warning: {w}\n\n"));
    }
    out.push_str(&compact_table(&view));
    let mut skipped = Vec::new();
    for card in view.cards() {
        if let Answer::Skipped { line, .. } = &card.answer {
            skipped.push(line.as_str());
            continue;
        }
        out.push_str(&format!("{}\n", card.title));
        out.push_str(&format!("  {}\n", card.outcome_line()));
        if let Some(d) = &card.decided_by {
            out.push_str(&format!("  decided by {}\n", d.label));
        }
        for e in card.evidence.iter().take(3) {
            out.push_str(&format!("  evidence: {}\n", e.fact));
        }
        if !card.flags.is_empty() {
            let flags: Vec<&str> = card.flags.iter().map(|f| f.label.as_str()).collect();
            out.push_str(&format!("  flags: {}\n", flags.join(", ")));
        }
        match &card.answer {
            Answer::NotAnswered(why) => out.push_str(&format!("  {why}\n")),
            Answer::Advice(a) => {
                out.push_str(&format!(
                    "  agent: {} — {}\n",
                    a.action.label,
                    a.agent.as_deref().unwrap_or_default(),
                ));
                if let Some(p) = &a.party {
                    out.push_str(&format!("  who must act: {}\n", p.label));
                }
                for line in a.server.iter().flat_map(|s| s.lines()) {
                    out.push_str(&format!("  server: {line}\n"));
                }
            }
            Answer::Skipped { .. } | Answer::Nothing => {}
        }
        if let Some(s) = &card.spec {
            out.push_str(&format!(
                "  spec {}: {} — {}\n",
                s.version, s.conformance.label, s.reason
            ));
        }
        if let Some(WireView::Stdio {
            stderr_tail: Some(tail),
            ..
        }) = &card.wire
        {
            out.push_str("  stderr (its last lines):\n");
            let lines: Vec<&str> = tail.lines().collect();
            for line in &lines[lines.len().saturating_sub(STDERR_LINES_SHOWN)..] {
                out.push_str(&format!("    | {line}\n"));
            }
        }
        out.push('\n');
    }
    for line in skipped {
        out.push_str(&format!("{line}\n"));
    }

    for n in summary.notes.iter().chain(&summary.footnotes) {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(auth) = &view.auth {
        out.push_str(&format!("\nAuthorization discovery · {}\n", auth.heading));
        out.push_str(&format!("{}\n\n", auth.browser));
        for card in &auth.cards {
            out.push_str(&format!("{}\n", card.title));
            if let Some(url) = &card.url {
                out.push_str(&format!("  {url}\n"));
            }
            out.push_str(&format!("  {}\n", card.outcome));
            if let Some(b) = &card.browser {
                out.push_str(&format!("  {}\n", b.line()));
            }
            for f in &card.findings {
                out.push_str(&format!("  {}\n", f.line()));
                if let (Some(rule), Some(link)) = (&f.rule, &f.link) {
                    out.push_str(&format!("    rule: {rule} ({link})\n"));
                }
                if let Some(e) = &f.elsewhere {
                    out.push_str(&format!("    otherwise in {e}\n"));
                }
            }
            out.push('\n');
        }
    }
    out
}

/// A row per answered probe and check ([`ReportView::grid`]): channel, cause, decided by, spec,
/// agent action; columns padded to their widest cell (the details follow).
fn compact_table(view: &ReportView) -> String {
    let label = |b: &Option<crate::output::view::Badge>| {
        b.as_ref().map_or("—".to_string(), |b| b.label.clone())
    };
    let mut rows = vec![[
        "".to_string(),
        "channel".into(),
        "cause".into(),
        "decided by".into(),
        "spec".into(),
        "agent".into(),
    ]];
    for row in view.grid() {
        rows.push([
            row.name,
            label(&row.channel),
            label(&row.cause),
            label(&row.decided_by),
            label(&row.spec),
            row.agent,
        ]);
    }
    if rows.len() == 1 {
        return String::new();
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out.push('\n');
    out
}
