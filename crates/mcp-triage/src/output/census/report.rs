//! `mcp-triage census report`: a census output read line by line into counts (memory grows with
//! the distinct names counted, capped, never with the lines), drawn as Markdown tables and as one
//! self-contained HTML file with SVG bar charts (no script, nothing fetched). Server names are data:
//! escaped for the format they land in, never a link.

use std::collections::BTreeMap;

use crate::output::census::line::{CensusLine, Reach};
use crate::output::export::md_cell;
use crate::output::junit::xml_text;
use crate::vocabulary::cause::Channel;

/// The most distinct `serverInfo` names counted; the rest count as "(other names)".
pub const MAX_NAMES: usize = 10_000;
/// Rows a table or chart shows; the rest are summed in one row.
const TOP: usize = 20;
const OTHER_NAMES: &str = "(other names)";

/// A table of the report: its title, its two column names, and its rows (name, count).
type Table = (&'static str, [&'static str; 2], Vec<(String, usize)>);

/// The counts of a census.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    lines: usize,
    unreadable: usize,
    reach: BTreeMap<String, usize>,
    names: BTreeMap<String, usize>,
    /// Probe A: how an unknown tool is told apart from a failing tool.
    a_told: BTreeMap<String, usize>,
    /// Probe A's cause.
    a_cause: BTreeMap<String, usize>,
    /// Probe A's spec verdict per protocol version.
    spec: BTreeMap<(String, String), usize>,
    /// What stopped the targets that were not answered: the connect request's cause.
    refusals: BTreeMap<String, usize>,
    tools: usize,
    tools_declared: usize,
    with_tools: usize,
    auth_deviations: BTreeMap<String, usize>,
    elapsed_ms: u64,
    waited_ms: u64,
}

fn bump(map: &mut BTreeMap<String, usize>, key: &str) {
    *map.entry(key.to_string()).or_default() += 1;
}

/// How probe A's answer tells an unknown tool apart from a tool that failed (which the spec sends
/// as a result with `isError`): a JSON-RPC error does by structure; a result with `isError` only by
/// its words, if at all.
fn told_apart(line: &CensusLine) -> &'static str {
    let Some(a) = &line.probe_a else {
        return "no answer to probe A";
    };
    match a.channel {
        Channel::JsonrpcError => "by structure (a JSON-RPC error)",
        Channel::ToolError if a.said.is_some() => "by words only (isError and prose)",
        Channel::ToolError => "not at all (isError, words withheld)",
        Channel::Success => "not at all (a success)",
        _ => "by transport (an HTTP or network failure)",
    }
}

impl Tally {
    /// Counts one line of the output; a line that is not a census line is counted as unreadable.
    pub fn add(&mut self, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        let Ok(line) = serde_json::from_str::<CensusLine>(text) else {
            self.unreadable += 1;
            return;
        };
        self.lines += 1;
        bump(&mut self.reach, line.reach.as_str());
        if let Some(server) = &line.server {
            if self.names.contains_key(&server.name) || self.names.len() < MAX_NAMES {
                bump(&mut self.names, &server.name);
            } else {
                bump(&mut self.names, OTHER_NAMES);
            }
        }
        if matches!(line.reach, Reach::Answered | Reach::Connected) {
            bump(&mut self.a_told, told_apart(&line));
        }
        if let Some(a) = &line.probe_a {
            bump(&mut self.a_cause, a.cause.as_str());
            if let Some(s) = &a.spec {
                *self
                    .spec
                    .entry((s.version.clone(), s.conformance.as_str().to_string()))
                    .or_default() += 1;
            }
        } else if let Some(c) = line.checks.iter().find(|c| c.check == "connect") {
            bump(&mut self.refusals, c.verdict.cause.as_str());
        }
        if let Some(t) = &line.tools {
            self.with_tools += 1;
            self.tools = self.tools.saturating_add(t.count);
            self.tools_declared = self
                .tools_declared
                .saturating_add(t.read_only.saturating_add(t.destructive));
        }
        for f in line.auth.iter().flat_map(|a| &a.findings) {
            if f.conformance == "deviates" {
                bump(&mut self.auth_deviations, &f.check);
            }
        }
        self.elapsed_ms = self.elapsed_ms.saturating_add(line.timings.elapsed_ms);
        self.waited_ms = self.waited_ms.saturating_add(line.timings.waited_ms);
    }

    /// Lines counted.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Lines that were not census lines.
    pub fn unreadable(&self) -> usize {
        self.unreadable
    }

    /// The tables, titled, each as (column names, rows), biggest first.
    fn tables(&self) -> Vec<Table> {
        let spec = self
            .spec
            .iter()
            .map(|((v, c), n)| (format!("{v}: {c}"), *n))
            .collect();
        vec![
            (
                "How far each target got",
                ["reach", "targets"],
                top(&self.reach),
            ),
            (
                "Unknown tool told apart from a failing tool (probe A)",
                ["told apart", "servers"],
                top(&self.a_told),
            ),
            ("Probe A's cause", ["cause", "servers"], top(&self.a_cause)),
            (
                "Probe A's spec verdict per protocol version",
                ["version: verdict", "servers"],
                spec,
            ),
            (
                "Why the rest stopped at connect",
                ["cause", "targets"],
                top(&self.refusals),
            ),
            (
                "Servers per serverInfo name",
                ["name", "servers"],
                top(&self.names),
            ),
            (
                "OAuth discovery: checks that deviate",
                ["check", "servers"],
                top(&self.auth_deviations),
            ),
        ]
    }

    fn facts(&self) -> Vec<String> {
        let mut facts = vec![format!(
            "{} targets{}",
            self.lines,
            if self.unreadable > 0 {
                format!(" ({} unreadable lines skipped)", self.unreadable)
            } else {
                String::new()
            }
        )];
        if self.with_tools > 0 {
            facts.push(format!(
                "{} tools on {} servers; {} declare readOnlyHint or destructiveHint ({}%)",
                self.tools,
                self.with_tools,
                self.tools_declared,
                (self.tools_declared * 100)
                    .checked_div(self.tools)
                    .unwrap_or(0)
            ));
        }
        facts.push(format!(
            "time in runs: {:.1} s, of which {:.1} s waiting to be polite",
            self.elapsed_ms as f64 / 1000.0,
            self.waited_ms as f64 / 1000.0
        ));
        facts.push(
            "no distinguishability score: a census sends probe A only, and a score needs B and C, which call the server's own tools".into(),
        );
        facts
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::from("# MCP Triage census\n\n");
        for f in self.facts() {
            // Our own words and counts: nothing of a server's.
            out.push_str(&format!("- {f}\n"));
        }
        for (title, [k, v], rows) in self.tables() {
            if rows.is_empty() {
                continue;
            }
            out.push_str(&format!("\n## {title}\n\n| {k} | {v} |\n|---|---:|\n"));
            // In a code span: a server's name stays text (no markup, no link, not even a bare
            // URL, which GitHub would otherwise link).
            for (key, n) in rows {
                out.push_str(&format!("| `{}` | {n} |\n", md_cell(&key)));
            }
        }
        out
    }

    /// The report as one HTML file: inline style, an SVG bar chart per table, nothing else.
    pub fn html(&self) -> String {
        let mut out = String::from(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
             <title>MCP Triage census</title><style>\
             body{font:15px/1.4 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}\
             h2{font-size:1.1rem;margin-top:2rem}svg text{font:12px system-ui,sans-serif;fill:#1b1f24}\
             @media (prefers-color-scheme: dark){body{background:#15181c;color:#e6e8eb}svg text{fill:#e6e8eb}}\
             </style></head><body><h1>MCP Triage census</h1><ul>",
        );
        for f in self.facts() {
            out.push_str(&format!("<li>{}</li>", xml_text(&f, 400)));
        }
        out.push_str("</ul>");
        for (title, [k, v], rows) in self.tables() {
            if rows.is_empty() {
                continue;
            }
            out.push_str(&format!("<h2>{}</h2>", xml_text(title, 200)));
            out.push_str(&bars(&rows, &format!("{k} by {v}")));
        }
        out.push_str("</body></html>\n");
        out
    }
}

/// The progress line a terminal shows while a census runs: done of total, the rate, the time left.
pub fn progress_line(done: usize, total: usize, elapsed_ms: f64) -> String {
    let secs = (elapsed_ms / 1000.0).max(0.001);
    let rate = done as f64 / secs;
    let left = if rate > 0.0 {
        let s = (total.saturating_sub(done) as f64 / rate).round() as u64;
        format!("{}m{:02}s left", s / 60, s % 60)
    } else {
        "time left unknown".into()
    };
    format!("census: {done}/{total} targets · {rate:.1}/s · {left}")
}

/// The biggest rows first (ties by name), the rest summed in one.
fn top(map: &BTreeMap<String, usize>) -> Vec<(String, usize)> {
    let mut rows: Vec<(String, usize)> = map.iter().map(|(k, n)| (k.clone(), *n)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if rows.len() > TOP {
        let rest: usize = rows[TOP..].iter().map(|(_, n)| n).sum();
        let others = rows.len() - TOP;
        rows.truncate(TOP);
        rows.push((format!("({others} more)"), rest));
    }
    rows
}

/// A horizontal bar chart: one bar a row, its label and count beside it.
fn bars(rows: &[(String, usize)], label: &str) -> String {
    const ROW: usize = 22;
    const LABEL_W: usize = 300;
    const BAR_W: usize = 320;
    let max = rows.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    let height = rows.len() * ROW + 4;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"{}\" width=\"100%\" viewBox=\"0 0 {} {height}\" xmlns=\"http://www.w3.org/2000/svg\">",
        xml_text(label, 200),
        LABEL_W + BAR_W + 60
    );
    for (i, (key, n)) in rows.iter().enumerate() {
        let y = i * ROW;
        let w = (n * BAR_W).div_ceil(max).max(1);
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{}\" fill=\"#4c7bd9\"/>\
             <text x=\"{}\" y=\"{}\">{n}</text>",
            LABEL_W - 6,
            y + 15,
            xml_text(key, 48),
            LABEL_W,
            y + 3,
            ROW - 6,
            LABEL_W + w + 6,
            y + 15
        ));
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::output::census::line::{CENSUS_FORMAT, ServerId, Timings};

    fn line(name: &str, reach: Reach) -> String {
        let mut l = CensusLine::of_rejected(&crate::run::census::targets::Rejected {
            url: "http://x/mcp".into(),
            source: "list:1".into(),
            why: "test".into(),
        });
        l.reach = reach;
        l.server = Some(ServerId {
            name: name.into(),
            version: None,
        });
        l.timings = Timings {
            elapsed_ms: 1500,
            waited_ms: 500,
            requests: 4,
        };
        assert_eq!(l.format, CENSUS_FORMAT);
        l.to_json_line()
    }

    #[test]
    fn names_are_data_in_both_formats_and_counted_with_a_cap() {
        let mut t = Tally::default();
        let evil = "<script>x</script>[a](javascript:x)";
        t.add(&line(evil, Reach::AuthRequired));
        t.add(&line("ok", Reach::AuthRequired));
        t.add("not json");
        t.add("");
        assert_eq!((t.lines(), t.unreadable()), (2, 1));
        let html = t.html();
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("<a "));
        let md = t.markdown();
        assert!(
            md.contains("| `<script>x</script>[a](javascript:x)` | 1 |"),
            "{md}"
        );
        assert!(md.contains("| `auth_required` | 2 |"), "{md}");
        for i in 0..MAX_NAMES + 5 {
            t.add(&line(&format!("n{i}"), Reach::Answered));
        }
        assert_eq!(
            t.names.len(),
            MAX_NAMES + 1,
            "the cap and one row for the rest"
        );
        assert_eq!(t.names[OTHER_NAMES], 7);
    }

    #[test]
    fn progress_says_rate_and_time_left() {
        assert_eq!(
            progress_line(50, 150, 10_000.0),
            "census: 50/150 targets · 5.0/s · 0m20s left"
        );
        assert!(progress_line(0, 10, 0.0).ends_with("time left unknown"));
    }

    #[test]
    fn the_top_rows_sum_the_rest() {
        let map: BTreeMap<String, usize> = (0..25).map(|i| (format!("k{i:02}"), i)).collect();
        let rows = top(&map);
        assert_eq!(rows.len(), TOP + 1);
        assert_eq!(rows[0], ("k24".to_string(), 24));
        assert_eq!(rows[TOP], ("(5 more)".to_string(), 10));
    }
}
