//! Redaction of secrets from everything a server sent back, in one place that every output reuses
//! (capture in the engine, display, JSON download, Markdown, share link).
//!
//! Servers echo tokens in error text, headers and HTML pages, in whatever escaping their JSON or HTML
//! writer uses. A secret is found by a *decoding matcher*: the text is read as it is, then with one
//! layer of per-character escapes decoded (JSON `\uXXXX` in either hex case with surrogate pairs,
//! `\/` and the other JSON escapes, `%XX` in either case, HTML character references: decimal, hex and
//! the named references of printable ASCII, with or without `;`), then with one more JSON-string layer
//! decoded (a JSON document inside a JSON string). In each reading, every run of
//! [`MIN_SECRET_RUN`] or more consecutive characters of a *secret form* is
//! replaced in the source text: the forms are the secret itself, its hex (either case), and the stable
//! cores of base64 and base64url of the secret and of `Bearer <secret>` at all three alignments.
//! Matching is linear: each 8-character window is one `u64` looked up in a sorted table.
//! Then `Bearer …` spans holding a token-shaped value and JWT-shaped strings are replaced too.

use crate::vocabulary::limits::MIN_SECRET_RUN;

/// The visible mark left where a secret was.
pub const MARK: &str = "[REDACTED]";

/// The secrets of a run. `Debug` never prints them; there is deliberately no `Serialize`.
#[derive(Clone, Default)]
pub struct Secrets {
    values: Vec<String>,
    /// Every 8-character window of every case-sensitive form, packed in a `u64`, sorted.
    windows: Vec<u64>,
    /// The same for the hex forms, lower-cased (matched against lower-cased text).
    hex_windows: Vec<u64>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets([REDACTED] x{})", self.values.len())
    }
}

/// Sorts window keys in place in O(n log n) with a few lines of code: the standard library's sorts
/// cost kilobytes of bundle per element type, and every byte is downloaded by every visitor.
fn heapsort(v: &mut [u64]) {
    fn sift_down(v: &mut [u64], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && v[child] < v[child + 1] {
                child += 1;
            }
            if v[root] >= v[child] {
                return;
            }
            v.swap(root, child);
            root = child;
        }
    }
    for start in (0..v.len() / 2).rev() {
        sift_down(v, start, v.len());
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

/// Packs 8 printable ASCII bytes into a window key.
fn key(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |k, b| (k << 8) | u64::from(*b))
}

fn windows_of(form: &str, out: &mut Vec<u64>) {
    let b = form.as_bytes();
    if b.len() >= MIN_SECRET_RUN {
        out.extend(b.windows(MIN_SECRET_RUN).map(key));
    }
}

impl Secrets {
    /// Secrets from the token and extra secret header values. Values shorter than
    /// [`MIN_SECRET_RUN`] characters are ignored here (the form refuses them before a run).
    pub fn new<'a>(values: impl IntoIterator<Item = &'a str>) -> Secrets {
        let mut values: Vec<String> = values
            .into_iter()
            .map(str::trim)
            .filter(|v| v.len() >= MIN_SECRET_RUN)
            .map(str::to_string)
            .collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        let mut windows = Vec::new();
        let mut hex_windows = Vec::new();
        for v in &values {
            for form in case_sensitive_forms(v) {
                windows_of(&form, &mut windows);
            }
            windows_of(&hex_lower(v), &mut hex_windows);
        }
        heapsort(&mut windows);
        windows.dedup();
        heapsort(&mut hex_windows);
        hex_windows.dedup();
        Secrets {
            values,
            windows,
            hex_windows,
        }
    }

    /// True when there is nothing to redact but patterns.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

fn hex_lower(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The case-sensitive forms: the value and the stable base64 / base64url cores of the value and of
/// `Bearer <value>` at the three alignments.
fn case_sensitive_forms(secret: &str) -> Vec<String> {
    let mut forms = vec![secret.to_string()];
    forms.extend(base64_cores(secret.as_bytes(), 0));
    forms.extend(base64_cores(
        format!("Bearer {secret}").as_bytes(),
        "Bearer ".len(),
    ));
    forms
}

/// The characters of base64 and base64url of `subject` that do not depend on the bytes around them,
/// for each of the three alignments. The first `public` bytes of the subject are no secret (`Bearer `):
/// the core starts late enough that every 8-character window holds some of the secret's bits (the
/// encoding of `Bearer ` alone is the same for every token, and is not a leak).
fn base64_cores(subject: &[u8], public: usize) -> Vec<String> {
    let mut out = Vec::new();
    for table in [B64_STD, B64_URL] {
        for shift in 0..3usize {
            let mut bytes = vec![0u8; shift];
            bytes.extend_from_slice(subject);
            let encoded = base64_with(&bytes, table, false);
            // Drop characters influenced by the unknown bytes before and after the subject.
            let skip = if shift == 0 {
                0
            } else {
                (shift * 4).div_ceil(3)
            };
            let keep_until = (shift + subject.len()) * 8 / 6;
            // The first character made of the secret's bits alone; every window keeps at least
            // one such character (a character mixing `Bearer ` with a few secret bits is shared
            // by many secrets).
            let first_secret_only = ((shift + public) * 8).div_ceil(6);
            let start = skip.max(first_secret_only.saturating_sub(MIN_SECRET_RUN - 1));
            if keep_until > start {
                out.push(encoded[start..keep_until.min(encoded.len())].to_string());
            }
        }
    }
    out
}

const B64_STD: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_with(bytes: &[u8], table: &[u8], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(char::from(table[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with padding.
pub fn base64_std(bytes: &[u8]) -> String {
    base64_with(bytes, B64_STD, true)
}

/// base64url without padding (share links).
pub fn base64url(bytes: &[u8]) -> String {
    base64_with(bytes, B64_URL, false)
}

fn percent_encode_with(s: &str, lower_hex: bool) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else if lower_hex {
            out.push_str(&format!("%{b:02x}"));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn percent_encode(s: &str) -> String {
    percent_encode_with(s, false)
}

/// Every form of `secret` a server might echo, spelled out (for leak checks and tests; redaction
/// itself matches windows of these and decodes escapes, see the module docs).
pub fn encodings(secret: &str) -> Vec<String> {
    let mut forms = case_sensitive_forms(secret);
    let json = serde_json::to_string(secret).unwrap_or_default();
    forms.push(json.trim_matches('"').to_string());
    forms.push(percent_encode(secret));
    forms.push(percent_encode_with(secret, true));
    let hex = hex_lower(secret);
    forms.push(hex.to_ascii_uppercase());
    forms.push(hex);
    forms.retain(|f| f.len() >= MIN_SECRET_RUN);
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    forms
}

fn is_token68(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~+/=".contains(c)
}

/// Replaces `Bearer <token>` spans (any case) with `Bearer [REDACTED]` — only when what follows the
/// scheme is token-shaped (a token68). Auth-params (`realm="…"`, `error=invalid_token`,
/// `resource_metadata="…"`) are not tokens and stay: a `=` inside the run, or a run that ends in `=`
/// followed by a quote, is a parameter.
fn redact_bearer(text: &str, count: &mut usize) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(rel) = lower[i..].find("bearer ") {
        let start = i + rel + "bearer ".len();
        out.push_str(&text[i..start]);
        let rest = &text[start..];
        let len: usize = rest
            .chars()
            .take_while(|c| is_token68(*c))
            .map(char::len_utf8)
            .sum();
        let run = &rest[..len];
        let body = run.trim_end_matches('=');
        let is_param =
            body.contains('=') || (body.len() < run.len() && rest[len..].starts_with('"'));
        if len >= 8 && run != MARK && !is_param {
            out.push_str(MARK);
            *count += 1;
        } else {
            out.push_str(run);
        }
        i = start + len;
    }
    out.push_str(&text[i..]);
    out
}

/// Replaces JWT-shaped strings (`eyJ….….…`) with the mark.
fn redact_jwt(text: &str, count: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let b = text.as_bytes();
    let seg = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    while i < b.len() {
        if b[i..].starts_with(b"eyJ") && (i == 0 || !seg(b[i - 1])) {
            let mut j = i;
            let mut dots = 0;
            let mut seg_len = 0;
            let mut ok = true;
            while j < b.len() && (seg(b[j]) || b[j] == b'.') {
                if b[j] == b'.' {
                    if seg_len < 4 {
                        ok = false;
                    }
                    dots += 1;
                    seg_len = 0;
                } else {
                    seg_len += 1;
                }
                j += 1;
            }
            if ok && dots == 2 {
                out.push_str(MARK);
                *count += 1;
                i = j;
                continue;
            }
            // Not a JWT: copy the whole run scanned, so no byte is scanned twice (linear time).
            out.push_str(&text[i..j]);
            i = j;
            continue;
        }
        let ch_len = text[i..].chars().next().map(char::len_utf8).unwrap_or(1);
        out.push_str(&text[i..i + ch_len]);
        i += ch_len;
    }
    out
}

/// Redacts one server-derived string; returns the text and how many spans were replaced.
pub fn redact(text: &str, secrets: &Secrets) -> (String, usize) {
    let (out, secret_hits, pattern_hits) = redact_counted(text, secrets);
    (out, secret_hits + pattern_hits)
}

/// [`redact`], counting the run's own secrets apart from the generic `Bearer`/JWT patterns.
fn redact_counted(text: &str, secrets: &Secrets) -> (String, usize, usize) {
    let (out, secret_hits) = redact_exact(text, secrets);
    if cfg!(feature = "leak-control") {
        return (out, 0, 0);
    }
    let mut pattern_hits = 0;
    let out = redact_bearer(&out, &mut pattern_hits);
    let out = redact_jwt(&out, &mut pattern_hits);
    (out, secret_hits, pattern_hits)
}

/// The secrets of a run, in memory only. `Debug` prints no secret and there is no `Serialize`.
#[derive(Clone, Default)]
pub struct Credentials {
    token: String,
    extra: Vec<(String, String)>,
    /// Extra headers the user marked as not secret: sent and recorded as they are.
    plain: Vec<(String, String)>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credentials([REDACTED])")
    }
}

impl Credentials {
    /// A token (may be empty), extra secret headers, and extra plain headers.
    pub fn new(
        token: String,
        extra: Vec<(String, String)>,
        plain: Vec<(String, String)>,
    ) -> Credentials {
        Credentials {
            token,
            extra,
            plain,
        }
    }

    /// True when a token was given.
    pub fn has_token(&self) -> bool {
        !self.token.is_empty()
    }

    /// What redaction must remove.
    pub fn secrets(&self) -> Secrets {
        Secrets::new(
            std::iter::once(self.token.as_str()).chain(self.extra.iter().map(|(_, v)| v.as_str())),
        )
    }

    /// Names of the extra secret headers.
    pub fn header_names(&self) -> Vec<String> {
        self.extra.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Extra headers the user marked as not secret.
    pub fn plain(&self) -> &[(String, String)] {
        &self.plain
    }

    /// The headers a request that carries credentials gets, in this order: `Authorization: Bearer`
    /// (when there is a token), the extra secret headers, the plain ones. Every shell adds exactly
    /// these, and only to the endpoint's own requests (`Outgoing::with_token`).
    pub fn request_headers(&self) -> Vec<(String, String)> {
        let bearer = self.has_token().then(|| {
            (
                "Authorization".to_string(),
                format!("Bearer {}", self.token),
            )
        });
        bearer
            .into_iter()
            .chain(self.extra.iter().cloned())
            .chain(self.plain.iter().cloned())
            .collect()
    }

    /// Names of every extra header, secret or plain (the CORS doctor preflights each).
    pub fn all_header_names(&self) -> Vec<String> {
        self.extra
            .iter()
            .chain(&self.plain)
            .map(|(k, _)| k.clone())
            .collect()
    }
}

/// Redacts a captured exchange in place, the moment it is recorded: every server-derived string
/// (response headers, body, undecodable bytes, our own bodies that carry server-chosen values,
/// transport details). A server-chosen `Mcp-Session-Id` keeps its shape (only secrets are removed
/// from it). Returns how many times the run's own secrets were found in the answer: a server that
/// echoes credentials is a finding.
pub fn redact_exchange(ex: &mut crate::vocabulary::exchange::Exchange, secrets: &Secrets) -> usize {
    let mut echoed = 0;
    let clean = |text: &mut String, exact_only: bool, counts: bool, echoed: &mut usize| {
        let (out, hits) = if exact_only {
            redact_exact(text, secrets)
        } else {
            let (out, secret_hits, _) = redact_counted(text, secrets);
            (out, secret_hits)
        };
        if counts {
            *echoed += hits;
        }
        *text = out;
    };
    for (name, value) in &mut ex.request.headers {
        // Our Authorization header is recorded by the shell as `Bearer [REDACTED]` already.
        clean(
            value,
            name.eq_ignore_ascii_case(crate::vocabulary::header::SESSION_ID),
            false,
            &mut echoed,
        );
    }
    if let Some(body) = ex.request.body.as_mut() {
        clean(body, false, false, &mut echoed);
    }
    if let Some(r) = ex.response.as_mut() {
        for (name, value) in &mut r.headers {
            clean(
                value,
                name.eq_ignore_ascii_case(crate::vocabulary::header::SESSION_ID),
                true,
                &mut echoed,
            );
        }
        if let Some(body) = r.body.as_mut() {
            clean(body, false, true, &mut echoed);
        }
        if let Some(b64) = r.body_base64.as_mut() {
            clean(b64, false, true, &mut echoed);
        }
    }
    if let Some(detail) = ex.transport_error_detail.as_mut() {
        clean(detail, false, true, &mut echoed);
    }
    if let Some(io) = ex.stdio.as_mut() {
        for line in &mut io.lines {
            clean(line, false, true, &mut echoed);
        }
        if let Some(tail) = io.stderr_tail.as_mut() {
            clean(tail, false, true, &mut echoed);
        }
    }
    echoed
}

/// Redacts only the secrets (in every form and escaping), not the `Bearer`/JWT patterns: for values
/// the client must show verbatim, such as a server-chosen `Mcp-Session-Id` that may look like a JWT.
pub fn redact_exact(text: &str, secrets: &Secrets) -> (String, usize) {
    redact_exact_with(text, secrets, MARK)
}

/// [`redact_exact`] leaving `mark` where a secret was (the endpoint scrub leaves `[path hidden]`).
pub fn redact_exact_with(text: &str, secrets: &Secrets, mark: &str) -> (String, usize) {
    if cfg!(feature = "leak-control") {
        return control_unredacted(text);
    }
    if secrets.values.is_empty() || text.len() < MIN_SECRET_RUN {
        return (text.to_string(), 0);
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
fn merge(a: Vec<(usize, usize)>, b: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
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

/// One reading of a text: a character per unit (printable ASCII as itself, anything else as 0) and
/// where each unit starts in the source text. Units tile the source: a unit ends where the next starts.
struct Layer {
    chars: Vec<u8>,
    starts: Vec<usize>,
    end: usize,
}

fn printable(c: u32) -> u8 {
    if (0x20..0x7f).contains(&c) {
        c as u8
    } else {
        0
    }
}

fn hex_value(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// Named character references of printable ASCII characters.
const NAMED: &[(&str, u8)] = &[
    ("DiacriticalGrave", b'`'),
    ("VerticalLine", b'|'),
    ("UnderBar", b'_'),
    ("percnt", b'%'),
    ("period", b'.'),
    ("commat", b'@'),
    ("equals", b'='),
    ("dollar", b'$'),
    ("midast", b'*'),
    ("lbrack", b'['),
    ("rbrack", b']'),
    ("lbrace", b'{'),
    ("rbrace", b'}'),
    ("lowbar", b'_'),
    ("verbar", b'|'),
    ("colon", b':'),
    ("comma", b','),
    ("quest", b'?'),
    ("grave", b'`'),
    ("apos", b'\''),
    ("quot", b'"'),
    ("QUOT", b'"'),
    ("plus", b'+'),
    ("bsol", b'\\'),
    ("excl", b'!'),
    ("lpar", b'('),
    ("rpar", b')'),
    ("semi", b';'),
    ("lsqb", b'['),
    ("rsqb", b']'),
    ("lcub", b'{'),
    ("rcub", b'}'),
    ("vert", b'|'),
    ("amp", b'&'),
    ("AMP", b'&'),
    ("sol", b'/'),
    ("num", b'#'),
    ("ast", b'*'),
    ("Hat", b'^'),
    ("lt", b'<'),
    ("LT", b'<'),
    ("gt", b'>'),
    ("GT", b'>'),
];

impl Layer {
    fn of_text(text: &str) -> Layer {
        let mut chars = Vec::with_capacity(text.len());
        let mut starts = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            chars.push(printable(c as u32));
            starts.push(i);
        }
        Layer {
            chars,
            starts,
            end: text.len(),
        }
    }

    /// One escape decoded at `i`: (the character, how many units it took), or `None`.
    fn escape_at(&self, i: usize) -> Option<(u8, usize)> {
        let c = &self.chars;
        let at = |k: usize| c.get(i + k).copied().unwrap_or(0);
        match at(0) {
            b'\\' => match at(1) {
                b'u' => {
                    let unit = |o: usize| -> Option<u32> {
                        (0..4).try_fold(0u32, |acc, k| Some(acc * 16 + hex_value(at(o + k))?))
                    };
                    let hi = unit(2)?;
                    if (0xD800..0xDC00).contains(&hi)
                        && at(6) == b'\\'
                        && at(7) == b'u'
                        && unit(8).is_some_and(|lo| (0xDC00..0xE000).contains(&lo))
                    {
                        // A surrogate pair: one character outside ASCII.
                        return Some((0, 12));
                    }
                    Some((printable(hi), 6))
                }
                b'"' => Some((b'"', 2)),
                b'\\' => Some((b'\\', 2)),
                b'/' => Some((b'/', 2)),
                b'b' | b'f' | b'n' | b'r' | b't' => Some((0, 2)),
                _ => None,
            },
            b'%' => {
                let v = hex_value(at(1))? * 16 + hex_value(at(2))?;
                Some((printable(v), 3))
            }
            b'&' => {
                if at(1) == b'#' {
                    let (radix, first) = if matches!(at(2), b'x' | b'X') {
                        (16, 3)
                    } else {
                        (10, 2)
                    };
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < 8 {
                        match (at(first + n) as char).to_digit(radix) {
                            Some(d) => v = v.saturating_mul(radix).saturating_add(d),
                            None => break,
                        }
                        n += 1;
                    }
                    if n == 0 {
                        return None;
                    }
                    let semi = usize::from(at(first + n) == b';');
                    return Some((printable(v), first + n + semi));
                }
                let (name, ch) = NAMED
                    .iter()
                    .find(|(name, _)| name.bytes().enumerate().all(|(k, b)| at(1 + k) == b))?;
                let semi = usize::from(at(1 + name.len()) == b';');
                Some((*ch, 1 + name.len() + semi))
            }
            _ => None,
        }
    }

    /// This reading with one layer of escapes decoded.
    fn decoded(&self) -> Layer {
        let mut chars = Vec::with_capacity(self.chars.len());
        let mut starts = Vec::with_capacity(self.chars.len());
        let mut i = 0;
        while i < self.chars.len() {
            let (ch, took) = self.escape_at(i).unwrap_or((self.chars[i], 1));
            chars.push(ch);
            starts.push(self.starts[i]);
            i += took.max(1);
        }
        Layer {
            chars,
            starts,
            end: self.end,
        }
    }

    fn unit_end(&self, i: usize) -> usize {
        self.starts.get(i + 1).copied().unwrap_or(self.end)
    }
}

/// Marks every run of 8+ units that is a window of a secret form (hex forms in any case).
fn scan(layer: &Layer, secrets: &Secrets, spans: &mut Vec<(usize, usize)>) {
    let n = MIN_SECRET_RUN;
    let mut exact: u64 = 0;
    let mut lower: u64 = 0;
    let mut valid = 0usize;
    let mut open: Option<(usize, usize)> = None;
    for (i, &c) in layer.chars.iter().enumerate() {
        if c == 0 {
            valid = 0;
            continue;
        }
        exact = (exact << 8) | u64::from(c);
        lower = (lower << 8) | u64::from(c.to_ascii_lowercase());
        valid += 1;
        if valid < n {
            continue;
        }
        let hit = secrets.windows.binary_search(&exact).is_ok()
            || secrets.hex_windows.binary_search(&lower).is_ok();
        if hit {
            let start = layer.starts[i + 1 - n];
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

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    const SENTINEL: &str = "mcptriageSENTINEL_abcdefghijklmnopqrstuvwxyzABCDEF";
    /// Printable ASCII with the characters escapers treat specially, 40+ characters.
    const HARD: &str = r#"mcpT+riage/SENT"INEL\qwe rty+uiop/asdf"ghjk\zxcv"#;

    /// The secret written every way the leak tests' server writes it (`crate::testing::leak::FORMS`), as
    /// plain text and inside a JSON body (`json_u` and `nested_json` there are the nested readings).
    fn echoes(secret: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for form in crate::testing::leak::FORMS {
            let e = crate::testing::leak::echo(form, secret).unwrap();
            out.push((format!("{form} (plain)"), e.plain));
            out.push((
                format!("{form} (in JSON)"),
                format!("{{\"error\":{{\"message\":\"bad {}\"}}}}", e.in_json),
            ));
            // One more JSON-string layer: a JSON document inside a JSON string (the nested form is
            // that already; a third layer is beyond what redaction promises).
            if *form != "nested_json" {
                let doc = format!("{{\"message\":\"{}\"}}", e.in_json);
                out.push((
                    format!("{form} (nested)"),
                    serde_json::to_string(&doc).unwrap(),
                ));
            }
        }
        out
    }

    /// The 8-character runs of the secret's forms that survive in `text`: the leak tests' own
    /// checker (`crate::testing::leak`), which decodes whole texts and is written apart from the matcher.
    fn survivors(text: &str, secret: &str) -> Vec<String> {
        crate::testing::leak::found(text, secret)
    }

    #[test]
    fn every_form_and_escaping_of_a_secret_is_removed_and_the_text_around_it_kept() {
        for secret in [SENTINEL, HARD] {
            let secrets = Secrets::new([secret]);
            for (form, echo) in echoes(secret) {
                let text = format!("before «{echo}» after");
                let (out, n) = redact(&text, &secrets);
                assert!(n >= 1, "{form}: not redacted: {text}");
                assert!(
                    out.starts_with("before «") && out.ends_with("» after"),
                    "{form}: {out}"
                );
                assert!(!out.contains("SENT"), "{form}: {out}");
                assert!(out.contains(MARK), "{form}: {out}");
            }
        }
    }

    #[test]
    fn a_partial_echo_of_eight_characters_is_removed_and_seven_are_left() {
        let secrets = Secrets::new([SENTINEL]);
        let eight = &SENTINEL[20..28];
        let (out, n) = redact(&format!("x {eight} y"), &secrets);
        assert_eq!((out.as_str(), n), ("x [REDACTED] y", 1));
        let seven = &SENTINEL[20..27];
        assert_eq!(redact(&format!("x {seven} y"), &secrets).1, 0);
    }

    #[test]
    fn no_eight_characters_of_a_secret_survive_a_cut_anywhere() {
        // A body cap, a line cap or a display cap can cut an echo at any byte: what is kept after
        // redaction must never hold 8 characters of any secret form, in any reading.
        let secrets = Secrets::new([HARD]);
        for (form, echo) in echoes(HARD) {
            let text = format!("ab {echo} cd");
            for cut in (0..=text.len()).filter(|c| text.is_char_boundary(*c)) {
                let (out, _) = redact(&text[..cut], &secrets);
                let left = survivors(&out, HARD);
                assert!(left.is_empty(), "{form} cut at {cut}: {left:?} in {out}");
            }
        }
    }

    #[test]
    fn the_control_sees_every_echo_when_nothing_is_redacted() {
        // The checker above must be able to fail: every echo, unredacted, is flagged by it.
        for (form, echo) in echoes(HARD) {
            assert!(
                !survivors(&echo, HARD).is_empty(),
                "{form}: the checker misses {echo}"
            );
        }
    }

    #[test]
    fn short_secrets_are_not_secrets_and_ordinary_text_stays() {
        let secrets = Secrets::new(["short12"]);
        assert!(secrets.is_empty());
        let secrets = Secrets::new([SENTINEL]);
        let text = "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"caf\\u00e9 &amp; 100% \\/ ok\"}]}}";
        assert_eq!(redact(text, &secrets), (text.to_string(), 0));
    }

    #[test]
    fn challenges_keep_their_parameters() {
        let s = Secrets::default();
        // TypeScript SDK (1.29.0 bearer middleware), raw and as formatted evidence without quotes.
        let ts = r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp""#;
        assert_eq!(redact(ts, &s), (ts.to_string(), 0));
        let ts_formatted = "WWW-Authenticate: Bearer error=invalid_token error_description=Missing Authorization header resource_metadata=http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp";
        assert_eq!(redact(ts_formatted, &s), (ts_formatted.to_string(), 0));
        // fastmcp: the scheme followed directly by resource_metadata.
        let fastmcp = r#"Bearer resource_metadata="http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp""#;
        assert_eq!(redact(fastmcp, &s), (fastmcp.to_string(), 0));
        let realm = r#"Bearer realm="mcp", scope="tools:read""#;
        assert_eq!(redact(realm, &s), (realm.to_string(), 0));
        // A token after the scheme still goes, padding and all.
        assert_eq!(redact("Bearer abcDEF123456==", &s).0, "Bearer [REDACTED]");
        // A parameter that holds our secret is redacted by the secret matcher.
        let secrets = Secrets::new([SENTINEL]);
        let echoed = format!(r#"Bearer error="invalid_token", error_description="bad {SENTINEL}""#);
        assert_eq!(
            redact(&echoed, &secrets).0,
            r#"Bearer error="invalid_token", error_description="bad [REDACTED]""#
        );
    }

    #[test]
    fn bearer_spans_and_jwts_go_even_without_known_secrets() {
        let s = Secrets::default();
        let (out, n) = redact("Authorization: Bearer abcdefgh12345678 was refused", &s);
        assert_eq!(out, "Authorization: Bearer [REDACTED] was refused");
        assert_eq!(n, 1);
        let jwt = "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU end";
        assert_eq!(redact(jwt, &s).0, "token [REDACTED] end");
        assert_eq!(redact("nothing here", &s), ("nothing here".into(), 0));
    }

    /// A quadratic scan of these 800,000 characters would not finish; how fast it is belongs to a
    /// benchmark, not here.
    #[test]
    fn a_hostile_run_of_near_jwts_finishes_and_is_left_unchanged() {
        let text = "eyJ.".repeat(200_000);
        let (out, n) = redact(&text, &Secrets::default());
        assert_eq!(n, 0);
        assert_eq!(out, text);
    }

    #[test]
    fn heapsort_sorts_and_merge_keeps_order() {
        let mut v: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 1009).collect();
        let mut want = v.clone();
        want.sort();
        heapsort(&mut v);
        assert_eq!(v, want);
        let mut empty: Vec<u64> = Vec::new();
        heapsort(&mut empty);
        assert_eq!(
            merge(vec![(1, 2), (5, 6)], vec![(0, 1), (3, 4), (9, 9)]),
            vec![(0, 1), (1, 2), (3, 4), (5, 6), (9, 9)]
        );
    }

    #[test]
    fn debug_never_prints_secrets() {
        let s = Secrets::new([SENTINEL]);
        assert!(!format!("{s:?}").contains("SENTINEL"));
    }
}
