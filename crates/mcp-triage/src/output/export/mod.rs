//! Taking results away: the run as JSON, a Markdown table for a GitHub issue, and a JUnit file for
//! CI (`curl` per request is in `curl.rs`).
//! The endpoint appears as its origin only unless the user opts in to path and query (keys live there).

use serde_json::Value;

use crate::output::view::{Answer, AuthView, Badge, ReportView};
use crate::run::endpoint::Endpoint;
use crate::run::engine::RunReport;
use crate::secrets::redact::{self, Secrets};

/// Hides the endpoint's path and query wherever they appear in text (keys often live there): the
/// full URL becomes `origin/[path hidden]`, the query `[query hidden]`, and the path itself — also
/// percent-encoded — `/[path hidden]`, wherever a server echoed it (metadata URLs, 404 pages).
#[derive(Debug, Clone)]
pub struct Scrub {
    origin: String,
    replacements: Vec<(String, String)>,
    /// The path's and the query's pieces as secrets: echoed in any encoding, they are hidden too.
    pieces: Secrets,
    /// Our own identifiers and their words that share a run of characters with a piece (a path
    /// like `/redirect301/mcp` shares `redirect` with `redirect_refused`): never hidden.
    ours: Vec<String>,
}

/// `%XX` escapes decoded (invalid UTF-8 replaced). The leak checker (`leak.rs`) has its own decoder on
/// purpose: it shares no code with what it checks.
fn percent_decoded(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = text.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16));
        match (b[i], hex) {
            (b'%', Some(Ok(v))) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Stands for the origin while the path is hidden (a path like `/mcp` also occurs inside
/// `https://mcp.example.com`). A private-use character: never in a URL, never in our own text.
const ORIGIN_HELD: &str = "\u{F8FF}origin\u{F8FF}";
/// Stands for an identifier of ours while the path's pieces are hidden (numbered, private-use).
const OURS_HELD: &str = "\u{F8FE}";

impl Scrub {
    /// The replacements for one endpoint.
    pub fn new(endpoint: &Endpoint) -> Scrub {
        let mut replacements = Vec::new();
        if endpoint.url != endpoint.origin() {
            replacements.push((
                endpoint.url.clone(),
                format!("{}/[path hidden]", endpoint.origin()),
            ));
        }
        let (path, query) = match endpoint.path_and_query.split_once('?') {
            Some((p, q)) => (p.to_string(), Some(q.to_string())),
            None => (endpoint.path_and_query.clone(), None),
        };
        if let Some(q) = query.filter(|q| !q.is_empty()) {
            replacements.push((q, "[query hidden]".into()));
        }
        let path = path.trim_end_matches('/').to_string();
        if path.len() > 1 {
            let encoded: String = path
                .bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                        char::from(b).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect();
            replacements.push((encoded, "[path hidden]".into()));
            replacements.push((path, "/[path hidden]".into()));
        }
        // The browser's URL parser percent-encodes what it sends, while a server may echo the
        // pieces decoded (and then in any encoding): both spellings are secrets.
        let raw: Vec<&str> = endpoint
            .path_and_query
            .split(['/', '?', '&', '='])
            .chain([endpoint.path_and_query.as_str()])
            .collect();
        let decoded: Vec<String> = raw.iter().map(|p| percent_decoded(p)).collect();
        // The matcher reads printable ASCII only: a decoded piece with other characters is
        // replaced as it is.
        for (r, d) in raw.iter().zip(&decoded) {
            if d != r && d.len() >= crate::vocabulary::limits::MIN_SECRET_RUN {
                replacements.push((d.clone(), "[path hidden]".into()));
            }
        }
        let pieces = Secrets::new(raw.into_iter().chain(decoded.iter().map(String::as_str)));
        let mut ours: Vec<String> = crate::output::identifiers::all()
            .into_iter()
            .filter(|id| redact::redact_exact_with(id, &pieces, "").1 > 0)
            .collect();
        // The longest first, so a word inside a longer one is held with it.
        ours.sort_by_key(|id| std::cmp::Reverse(id.len()));
        ours.dedup();
        Scrub {
            origin: endpoint.origin(),
            replacements,
            pieces,
            ours,
        }
    }

    /// The text with the endpoint's path and query hidden (the origin itself is left whole).
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (from, to) in &self.replacements {
            if out.contains(from.as_str()) {
                out = out
                    .replace(&self.origin, ORIGIN_HELD)
                    .replace(from.as_str(), to)
                    .replace(ORIGIN_HELD, &self.origin);
            }
        }
        // Pieces of 8+ characters echoed in another encoding (hex, base64, escapes); our own
        // identifiers and their words are held out of it.
        let mut held = out.replace(&self.origin, ORIGIN_HELD);
        let (hidden, n) = redact::redact_exact_with(&held, &self.pieces, "[path hidden]");
        if n == 0 {
            return out;
        }
        let mut kept = Vec::new();
        for id in &self.ours {
            let mark = format!("{OURS_HELD}{}{OURS_HELD}", kept.len());
            if let Some(with_marks) = hold_whole(&held, id, &mark) {
                held = with_marks;
                kept.push(id);
            }
        }
        let hidden = if kept.is_empty() {
            hidden
        } else {
            let mut hidden = redact::redact_exact_with(&held, &self.pieces, "[path hidden]").0;
            for (i, id) in kept.iter().enumerate().rev() {
                hidden = hidden.replace(&format!("{OURS_HELD}{i}{OURS_HELD}"), id);
            }
            hidden
        };
        hidden.replace(ORIGIN_HELD, &self.origin)
    }

    /// An identifier of ours as a whole value (a cause, a check id): never the endpoint's path.
    fn is_ours(&self, value: &str) -> bool {
        self.ours.iter().any(|id| id == value)
    }

    fn walk(&self, value: &mut Value) {
        match value {
            Value::String(s) if self.is_ours(s) => {}
            Value::String(s) => *s = self.apply(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.walk(v)),
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match v {
                        // Bytes that are not UTF-8 are kept as base64: the path is hidden in their
                        // text stretches, where it would be invisible to a scrub of the string.
                        Value::String(b64) if key == BODY_BASE64 => {
                            if let Some(clean) = self.apply_base64(b64) {
                                *b64 = clean;
                            }
                        }
                        _ => self.walk(v),
                    }
                }
            }
            _ => {}
        }
    }

    /// Base64 bytes with the path hidden in each stretch of valid UTF-8 (the other bytes kept);
    /// `None` when the text is not base64.
    fn apply_base64(&self, b64: &str) -> Option<String> {
        let bytes = crate::vocabulary::exchange::decode_base64(b64)?;
        let mut out = Vec::with_capacity(bytes.len());
        for chunk in bytes.utf8_chunks() {
            out.extend_from_slice(self.apply(chunk.valid()).as_bytes());
            out.extend_from_slice(chunk.invalid());
        }
        Some(redact::base64_std(&out))
    }
}

/// The recorded response's field for bytes that are not UTF-8.
const BODY_BASE64: &str = "body_base64";

/// `text` with each occurrence of `word` that stands alone (no letter, digit or `_` beside it)
/// replaced by `mark`; `None` when there is none. A word inside a longer run (`redirect` in an
/// echoed `redirect301`) is not ours: it stays for the scrub to hide.
fn hold_whole(text: &str, word: &str, mark: &str) -> Option<String> {
    let joins = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut held = false;
    while let Some(at) = rest.find(word) {
        let before = match at {
            0 => out.chars().next_back(),
            _ => rest[..at].chars().next_back(),
        };
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        if joins(before) || joins(after) {
            out.push_str(word);
        } else {
            out.push_str(mark);
            held = true;
        }
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    held.then_some(out)
}

/// Hides the endpoint's path and query in every string of `value`.
pub(crate) fn scrub_endpoint(value: &mut Value, endpoint: &Endpoint) {
    Scrub::new(endpoint).walk(value);
}

fn redact_strings(value: &mut Value, secrets: &Secrets) {
    match value {
        Value::String(s) => *s = redact::redact(s, secrets).0,
        Value::Array(items) => items.iter_mut().for_each(|v| redact_strings(v, secrets)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_strings(v, secrets)),
        _ => {}
    }
}

/// The JSON report's format and version: a field added to it keeps the version, a field renamed or
/// removed makes a new one (other tools read these files). /2 holds each body once: a record's
/// assessment leaves out `message` (the body read again), and a body kept as `body_base64` leaves
/// out its lossy `body` text.
pub const REPORT_FORMAT: &str = "mcp-triage-report/2";

/// Every report version this build reads back (a replay, a comparison): /1 held each body twice,
/// which a reader does not look at.
const REPORT_FORMATS_READ: [&str; 2] = ["mcp-triage-report/1", REPORT_FORMAT];

/// Whether a file's `format` names a JSON report this build reads.
pub(crate) fn is_report_format(format: Option<&str>) -> bool {
    format.is_some_and(|f| REPORT_FORMATS_READ.contains(&f))
}

/// Each body once (the report's cap is the body cap): the parsed message beside its body goes, and
/// so does the lossy text beside exact bytes kept as base64.
fn keep_each_body_once(report: &mut Value) {
    let Some(records) = report.get_mut("records").and_then(Value::as_array_mut) else {
        return;
    };
    for record in records {
        if let Some(a) = record.get_mut("assessment").and_then(Value::as_object_mut) {
            a.remove("message");
        }
        let Some(exchange) = record.get_mut("exchange") else {
            continue;
        };
        for side in ["request", "response"] {
            if let Some(m) = exchange.get_mut(side).and_then(Value::as_object_mut)
                && m.get("body_base64").is_some_and(Value::is_string)
            {
                m.remove("body");
            }
        }
    }
}

/// The run as pretty JSON (the user's own file: full content), endpoint reduced to its origin unless
/// `include_path`; every string goes through redaction once more (a backstop: records are redacted
/// when captured).
pub fn report_json(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
) -> String {
    report_json_with_share(report, endpoint, include_path, secrets, None)
}

/// [`report_json`] with the run's share link as a top-level `"share"` field (a field added keeps
/// [`REPORT_FORMAT`]), for the command line's `--json --share`.
pub fn report_json_with_share(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
    share: Option<&str>,
) -> String {
    report_json_with(report, endpoint, include_path, secrets, share, None)
}

/// [`report_json`] as the page downloads it: with the CORS doctor's diagnosis, when it ran, as a
/// top-level `"cors_doctor"` field (a field added keeps [`REPORT_FORMAT`]).
pub fn report_json_with_doctor(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
    doctor: Option<&crate::run::cors::Diagnosis>,
) -> String {
    report_json_with(report, endpoint, include_path, secrets, None, doctor)
}

fn report_json_with(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
    share: Option<&str>,
    doctor: Option<&crate::run::cors::Diagnosis>,
) -> String {
    let mut v = serde_json::to_value(report).unwrap_or(Value::Null);
    keep_each_body_once(&mut v);
    // Each skipped probe's sentence, why and what to do next, beside its reason's id (a field
    // added, as the page and the text report say it).
    if let Some(probes) = v.get_mut("probes").and_then(Value::as_array_mut) {
        for (row, planned) in probes.iter_mut().zip(&report.probes) {
            if let (Some(m), Some(line)) =
                (row.as_object_mut(), planned.skip_line(report.vantage()))
            {
                m.insert("skip_line".into(), Value::String(line));
            }
        }
    }
    if let Some(m) = v.as_object_mut() {
        m.insert("format".into(), Value::String(REPORT_FORMAT.into()));
        if let Some(d) = doctor {
            m.insert(
                "cors_doctor".into(),
                serde_json::to_value(d).unwrap_or(Value::Null),
            );
        }
    }
    redact_strings(&mut v, secrets);
    if !include_path {
        scrub_endpoint(&mut v, endpoint);
    }
    // The share link is the core's own, its payload built with the same path choice and redacted
    // twice: the scrub of the endpoint's path must not rewrite it (the page's address, or the
    // fragment's base64, may hold the path's letters, as `/mcp` is in the hosted page's address).
    if let (Some(m), Some(link)) = (v.as_object_mut(), share) {
        m.insert(
            "share".into(),
            Value::String(redact::redact(link, secrets).0),
        );
    }
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Server text for inside a code span: one line, capped, no backtick (it would end the span), `|`
/// escaped (it would end the table cell even inside a span).
pub(crate) fn md_cell(text: &str) -> String {
    md_cell_within(text, 160)
}

/// [`md_cell`] with its own length cap (in characters).
fn md_cell_within(text: &str, cap: usize) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let cut: String = one_line.chars().take(cap).collect();
    let cut = if one_line.chars().count() > cap {
        format!("{cut}…")
    } else {
        cut
    };
    cut.replace('|', "\\|").replace('`', "'")
}

/// Server text for running Markdown: [`md_cell`], and every character that Markdown or HTML would
/// read as markup (emphasis, links, images, headings, tags, entities) escaped with a backslash, so
/// a pasted report shows the server's words and nothing else.
pub(crate) fn md_text(text: &str) -> String {
    md_text_within(text, 160)
}

/// [`md_text`] with its own length cap (in characters).
fn md_text_within(text: &str, cap: usize) -> String {
    md_cell_within(text, cap)
        .chars()
        .flat_map(|c| {
            let escape = matches!(
                c,
                '\\' | '*'
                    | '_'
                    | '['
                    | ']'
                    | '('
                    | ')'
                    | '#'
                    | '!'
                    | '<'
                    | '>'
                    | '&'
                    | '~'
                    | '{'
                    | '}'
            );
            escape.then_some('\\').into_iter().chain(std::iter::once(c))
        })
        .collect::<String>()
        // md_cell already escaped `|` as `\|`; the loop above doubled that backslash.
        .replace("\\\\|", "\\|")
}

/// [`markdown`] with the run's share link at its end: a page link, or a bare fragment (`#r=…`) when
/// no page address was given. What the command line writes for `--markdown` and `--markdown-file`.
pub fn markdown_with_share(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
    share: Option<&str>,
) -> String {
    let mut md = markdown(report, endpoint, include_path, secrets);
    match share {
        Some(l) if l.starts_with('#') => md.push_str(&format!("\nShare fragment: `{l}`\n")),
        Some(l) => md.push_str(&format!("\n[Open this report in MCP Triage]({l})\n")),
        None => {}
    }
    md
}

/// A Markdown report: the finding, and one row per probe and check. Server text is escaped (Markdown
/// and HTML) and redacted once more with the run's secrets.
pub fn markdown(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
) -> String {
    let shown = if include_path {
        endpoint.url.clone()
    } else {
        endpoint.origin()
    };
    // Redacted before escaping: an escape inserted into an echoed secret would hide it from the
    // matcher. The whole text is redacted once more at the end.
    let md_cell = |t: &str| md_cell(&redact::redact(t, secrets).0);
    let md_text = |t: &str| md_text(&redact::redact(t, secrets).0);
    let view = ReportView::for_reading(report, &[]);
    let summary = &view.summary;
    let mut out = String::new();
    // The fix first opens the report: what to change, for which probe, who makes it.
    if let Some(fix) = &summary.fix_first {
        out.push_str(&format!("**{}**\n", md_text_within(&fix.sentence, 1000)));
        for then in &fix.then {
            out.push_str(&format!("- then {}\n", md_text_within(then, 1000)));
        }
        out.push('\n');
    }
    out.push_str("### MCP Triage report\n\n");
    // The headline first, whole (it is what the page leads with).
    out.push_str(&format!("{}\n\n", md_text_within(&summary.headline, 1000)));
    out.push_str(&format!("- Endpoint: `{}`\n", md_cell(&shown)));
    if let Some(server) = &summary.server {
        out.push_str(&format!("- Server: {}\n", md_text(server)));
    }
    out.push_str(&format!(
        "- Protocol version: {}\n",
        md_text(&summary.protocol)
    ));
    out.push_str(&format!("- {}: {}\n\n", summary.score_label, summary.score));
    for w in &summary.warnings {
        out.push_str(&format!("> {}\n\n", md_text_within(w, 1000)));
    }
    out.push_str("| Probe | Tool | HTTP | Channel | Cause | JSON-RPC code | Decided by | Agent should | Spec |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");
    // Rows in the order of the page's cards (A–D, then the checks), not in the order answers came.
    let label = |b: &Option<Badge>| b.as_ref().map(|b| b.label.clone());
    let dash = |t: Option<String>| t.unwrap_or_else(|| "—".into());
    let mut skipped = Vec::new();
    for card in view.probes.iter().chain(&view.checks) {
        let agent = match &card.answer {
            Answer::Advice(a) => a.action.label.clone(),
            Answer::NotAnswered(why) => format!("— ({})", md_text(why)),
            Answer::Skipped { line, .. } => {
                skipped.push(line.clone());
                continue;
            }
            Answer::Nothing => "—".into(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            md_text(&card.title),
            card.tool
                .as_deref()
                .map(|t| format!("`{}`", md_cell(t)))
                .unwrap_or_else(|| "—".into()),
            // The HTTP status, or `stdio` for a run over a child process's stdin and stdout.
            dash(
                card.carrier
                    .as_deref()
                    .map(|c| c.trim_start_matches("HTTP ").to_string())
            ),
            dash(label(&card.channel)),
            dash(label(&card.cause)),
            dash(card.jsonrpc_code.map(|c| c.to_string())),
            dash(label(&card.decided_by)),
            agent,
            dash(card.spec.as_ref().map(|s| s.conformance.label.clone())),
        ));
    }
    // Our own sentences, with what to do next: longer than a server's quoted text may be.
    for line in skipped {
        out.push_str(&format!("\n{}.", md_text_within(&line, 320)));
    }
    if let Some(auth) = &view.auth {
        out.push_str(&auth_markdown(auth));
    }

    out.push_str("\n\n_Generated by MCP Triage; tokens are never included._\n");
    let out = redact::redact(&out, secrets).0;
    if include_path {
        out
    } else {
        Scrub::new(endpoint).apply(&out)
    }
}

/// The OAuth doctor's section of the Markdown report: a table of findings per card, the server's
/// values as code, URLs as code (never links).
fn auth_markdown(auth: &AuthView) -> String {
    let mut out = format!(
        "\n\n#### Authorization discovery\n\n{}\n",
        md_text_within(&auth.heading, 300)
    );
    if !auth.browser.is_empty() {
        out.push_str(&format!("\n{}\n", md_text_within(&auth.browser, 600)));
    }
    for card in &auth.cards {
        out.push_str(&format!("\n**{}**", md_text(&card.title)));
        if let Some(url) = &card.url {
            out.push_str(&format!(" `{}`", md_cell_within(url, 400)));
        }
        out.push_str(&format!(": {}\n", md_text_within(&card.outcome, 400)));
        if let Some(b) = &card.browser {
            out.push_str(&format!("\n{}\n", md_text_within(&b.line(), 600)));
        }
        if card.findings.is_empty() {
            continue;
        }
        out.push_str("\n| Check | Verdict | Seen | Rule |\n|---|---|---|---|\n");
        for f in &card.findings {
            let level = f
                .level
                .as_ref()
                .map(|l| format!(" ({})", l.label))
                .unwrap_or_default();
            let elsewhere = f
                .elsewhere
                .as_ref()
                .map(|e| format!("; otherwise in {e}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "| {} | {}{level}{} | `{}` | {} |\n",
                f.check.label,
                f.conformance.label,
                md_text(&elsewhere),
                md_cell_within(&f.detail, 300),
                f.link
                    .as_deref()
                    .map(|l| format!("`{}`", md_cell(l)))
                    .unwrap_or_else(|| "—".into())
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
