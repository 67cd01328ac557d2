//! A comparison drawn for each surface: text for a terminal, Markdown for a CI summary, JSON
//! (`mcp-triage-diff/1`) and JUnit cases, every one from the same [`Comparison`].

use super::model::{Change, Comparison};

/// The mark a change shows in text and Markdown.
fn mark(change: Change) -> &'static str {
    match change {
        Change::Better => "better",
        Change::Worse => "WORSE",
        Change::Neutral => "",
        Change::Mixed => "MIXED",
    }
}

impl Comparison {
    /// The comparison for a terminal: the context, the summary, then one block a probe that changed.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.context {
            out.push_str(&format!("Note: {line}\n"));
        }
        out.push_str(&format!("{}\n", self.summary));
        out.push_str(&format!(
            "{} better, {} worse. Score {} → {}{}\n",
            self.better,
            self.worse,
            self.score_before,
            self.score_after,
            match self.score_change {
                Change::Neutral => String::new(),
                c => format!(" ({})", mark(c)),
            }
        ));
        for row in &self.rows {
            if row.changes.is_empty() {
                out.push_str(&format!("\n{}: unchanged ({})\n", row.title, row.after));
                continue;
            }
            out.push_str(&format!("\n{}: {}\n", row.title, mark(row.overall)));
            out.push_str(&format!(
                "  before: {}\n  after:  {}\n",
                row.before, row.after
            ));
            for c in &row.changes {
                let m = mark(c.change);
                out.push_str(&format!(
                    "  {:<11} {} → {}{}\n",
                    c.field.as_str(),
                    c.before,
                    c.after,
                    if m.is_empty() {
                        String::new()
                    } else {
                        format!("  [{m}]")
                    }
                ));
            }
        }
        out
    }

    /// The comparison as Markdown (a CI job's step summary): the run's words escaped.
    pub fn markdown(&self) -> String {
        use crate::output::export::{md_cell, md_text};
        let mut out = String::from("### Compared with the baseline\n\n");
        for line in &self.context {
            out.push_str(&format!("> {}\n\n", md_text(line)));
        }
        out.push_str(&format!("{}\n\n", md_text(&self.summary)));
        out.push_str(&format!(
            "**{} better, {} worse.** Score {} → {}\n\n",
            self.better, self.worse, self.score_before, self.score_after
        ));
        out.push_str("| Probe | Before | After | Changes |\n|---|---|---|---|\n");
        for row in &self.rows {
            let changes: Vec<String> = row
                .changes
                .iter()
                .map(|c| {
                    let m = mark(c.change);
                    let m = if m.is_empty() {
                        String::new()
                    } else {
                        format!(" **{m}**")
                    };
                    format!(
                        "{}: {} → {}{m}",
                        c.field,
                        md_cell(&c.before),
                        md_cell(&c.after)
                    )
                })
                .collect();
            out.push_str(&format!(
                "| {} | `{}` | `{}` | {} |\n",
                md_cell(&row.title),
                md_cell(&row.before),
                md_cell(&row.after),
                if changes.is_empty() {
                    "unchanged".to_string()
                } else {
                    changes.join("<br>")
                }
            ));
        }
        out
    }

    /// The comparison as JSON (`mcp-triage-diff/1`).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// One JUnit case a probe or check, and one for the score: a case fails when something of it
    /// got worse, naming what changed.
    pub fn junit_cases(&self) -> Vec<crate::output::junit::ExtraCase> {
        use crate::output::junit::ExtraCase;
        let class = "mcp-triage.baseline";
        let mut cases: Vec<ExtraCase> = self
            .rows
            .iter()
            .map(|row| {
                let worse: Vec<String> = row
                    .changes
                    .iter()
                    .filter(|c| c.change == Change::Worse)
                    .map(|c| format!("{} {} → {}", c.field, c.before, c.after))
                    .collect();
                ExtraCase {
                    name: format!("{} · against the baseline", row.title),
                    class,
                    failure: (!worse.is_empty())
                        .then(|| format!("worse than the baseline: {}", worse.join("; "))),
                    out: format!("before: {}; after: {}", row.before, row.after),
                }
            })
            .collect();
        cases.push(ExtraCase {
            name: "Score · against the baseline".into(),
            class,
            failure: (self.score_change == Change::Worse).then(|| {
                format!(
                    "worse than the baseline: score {} → {}",
                    self.score_before, self.score_after
                )
            }),
            out: self.summary.clone(),
        });
        cases
    }
}
