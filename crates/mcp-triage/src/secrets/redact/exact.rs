//! The decoding matcher: every run of 8+ characters of a secret form, in each reading of a text, is
//! replaced with the mark.

use super::layer::Layer;
use super::secret_set::Secrets;
use crate::vocabulary::limits::MIN_SECRET_RUN;

/// The visible mark left where a secret was.
pub(crate) const MARK: &str = "[REDACTED]";

/// Redacts only the secrets (in every form and escaping), not the `Bearer`/JWT patterns: for values
/// the client must show verbatim, such as a server-chosen `Mcp-Session-Id` that may look like a JWT.
pub(crate) fn redact_exact(text: &str, secrets: &Secrets) -> (String, usize) {
    redact_exact_with(text, secrets, MARK)
}

/// [`redact_exact`] leaving `mark` where a secret was (the endpoint scrub leaves `[path hidden]`).
pub(crate) fn redact_exact_with(text: &str, secrets: &Secrets, mark: &str) -> (String, usize) {
    if cfg!(feature = "leak-control") {
        return control_unredacted(text);
    }
    if secrets.values.is_empty() || text.len() < MIN_SECRET_RUN {
        return (text.to_string(), 0);
    }
    if !Layer::fits(text) {
        // Past 4 GiB (no cap lets a text get here): hidden whole rather than read.
        return (mark.to_string(), 1);
    }
    // Reading 0: the text as it is.
    let raw = Layer::of_text(text);
    let mut spans = Vec::new();
    scan(&raw, secrets, &mut spans);
    // Readings 1 and 2: one layer of escapes decoded, then one more JSON-string layer. Each
    // reading's spans come in text order; merging keeps them so without a sort.
    if text.bytes().any(|b| matches!(b, b'\\' | b'%' | b'&')) {
        let once = raw.decoded();
        let mut more = Vec::new();
        scan(&once, secrets, &mut more);
        if once.chars.contains(&b'\\') {
            let twice = once.decoded();
            let mut deeper = Vec::new();
            scan(&twice, secrets, &mut deeper);
            more = merge(more, deeper);
        }
        spans = merge(spans, more);
    }
    replace_spans(text, spans, mark)
}

/// The marker a `leak-control` build carries (the size gate checks `dist/` never does).
#[cfg(feature = "leak-control")]
const CONTROL_MARKER: &str = "MCP-TRIAGE-LEAK-CONTROL-BUILD: redaction is switched off";

/// With the test-only `leak-control` feature, redaction returns its input (the leak tests' control).
fn control_unredacted(text: &str) -> (String, usize) {
    #[cfg(feature = "leak-control")]
    std::hint::black_box(CONTROL_MARKER);
    (text.to_string(), 0)
}

/// Two lists of spans, each in order of start, as one list in order of start (linear).
pub(super) fn merge(a: Vec<(usize, usize)>, b: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x <= y => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(span) => out.push(span),
            None => return out,
        }
    }
}

/// Replaces the byte spans (in order of start, merged where they touch) with the mark; returns how
/// many marks.
fn replace_spans(text: &str, spans: Vec<(usize, usize)>, mark: &str) -> (String, usize) {
    if spans.is_empty() {
        return (text.to_string(), 0);
    }
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut at = 0;
    let mut i = 0;
    while i < spans.len() {
        let (start, mut end) = spans[i];
        i += 1;
        while i < spans.len() && spans[i].0 <= end {
            end = end.max(spans[i].1);
            i += 1;
        }
        // Spans come from char boundaries of the text; guard anyway (never panic on odd input).
        let (Some(before), true) = (text.get(at..start.max(at)), text.is_char_boundary(end)) else {
            continue;
        };
        out.push_str(before);
        out.push_str(mark);
        count += 1;
        at = end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (out, count)
}

/// Marks every run of 8+ units that is a window of a secret form (hex forms in any case).
fn scan(layer: &Layer, secrets: &Secrets, spans: &mut Vec<(usize, usize)>) {
    let n = MIN_SECRET_RUN;
    let mut exact: u64 = 0;
    let mut valid = 0usize;
    // How many hex digits end here: a window of a hex form is 8 of them (in any case), so the hex
    // table is read only then, and its lower-cased key is the window with bit 0x20 set in each
    // byte (digits have it already; `A`-`F` become `a`-`f`).
    let mut hex_run = 0usize;
    let mut open: Option<(usize, usize)> = None;
    for (i, &c) in layer.chars.iter().enumerate() {
        if c == 0 {
            valid = 0;
            hex_run = 0;
            continue;
        }
        exact = (exact << 8) | u64::from(c);
        valid += 1;
        hex_run = if c.is_ascii_hexdigit() {
            hex_run + 1
        } else {
            0
        };
        if valid < n {
            continue;
        }
        let lower = (hex_run >= n).then_some(exact | 0x2020_2020_2020_2020);
        if secrets.may_hold(exact, lower) {
            let start = layer.start(i + 1 - n);
            let end = layer.unit_end(i);
            open = match open {
                Some((s, e)) if start <= e => Some((s, end.max(e))),
                Some(done) => {
                    spans.push(done);
                    Some((start, end))
                }
                None => Some((start, end)),
            };
        }
    }
    if let Some(done) = open {
        spans.push(done);
    }
}
