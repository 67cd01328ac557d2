//! The views' types: cards, summaries, badges and their tones.

use serde::Serialize;

use crate::vocabulary::labelled::Labelled;

labelled_enum! {
    /// How a badge reads at a glance: each tone has a symbol (a text character every common font
    /// has, never an emoji) and a class, so a badge is never colour alone.
    Tone {
        /// A word, not a judgement (a cause, an action, who decided): no symbol.
        Plain = "plain",
        /// An observation worth a second look.
        Flag = "flag",
        /// It worked, or it conforms.
        Ok = "ok",
        /// Neither good nor bad (accepted, a stream held open).
        Neutral = "neutral",
        /// No rule speaks to it.
        Absent = "absent",
        /// A failure the call itself resolves with (a tool error).
        Warn = "warn",
        /// A failure (a JSON-RPC error, a deviation).
        Bad = "bad",
        /// Refused before it reached MCP (an HTTP status).
        Refused = "refused",
        /// No readable answer.
        Unknown = "unknown",
    }
}

impl Tone {
    /// The symbol shown before the badge's words.
    pub fn symbol(self) -> &'static str {
        match self {
            Tone::Plain => "",
            Tone::Flag => "⚑",
            Tone::Ok => "✓",
            Tone::Neutral => "•",
            Tone::Absent => "–",
            Tone::Warn => "◆",
            Tone::Bad => "✕",
            Tone::Refused => "⊘",
            Tone::Unknown => "?",
        }
    }

    /// The colour class (`ok`, `neutral`, `warn`, `bad`).
    pub fn class(self) -> &'static str {
        match self {
            Tone::Ok => "ok",
            Tone::Plain => "plain",
            Tone::Flag | Tone::Neutral | Tone::Absent => "neutral",
            Tone::Warn => "warn",
            Tone::Bad | Tone::Refused | Tone::Unknown => "bad",
        }
    }
}

/// An identifier with its words for people, as one table defines both, and its tone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Badge {
    /// The stable identifier (what tests and tools match).
    pub id: String,
    /// Its words for people (what every surface shows).
    pub label: String,
    /// How it reads at a glance.
    pub tone: Tone,
}

impl Badge {
    pub(super) fn of(value: impl Labelled) -> Badge {
        Badge::toned(value, Tone::Plain)
    }

    pub(super) fn toned(value: impl Labelled, tone: Tone) -> Badge {
        Badge {
            id: value.id().to_string(),
            label: value.words(),
            tone,
        }
    }

    /// An identifier as a link carried it: its table's words when this build knows it, else the
    /// identifier itself (an old link's words that a later build dropped are shown as they came).
    pub(super) fn read<T: Labelled>(id: &str, tone: impl Fn(T) -> Tone) -> Badge {
        match T::from_id(id) {
            Some(v) => Badge::toned(v, tone(v)),
            None => Badge {
                id: id.to_string(),
                label: id.to_string(),
                tone: Tone::Unknown,
            },
        }
    }
}

/// A channel's tone.
pub(super) fn channel_tone(channel: crate::vocabulary::cause::Channel) -> Tone {
    use crate::vocabulary::cause::Channel;
    match channel {
        Channel::Success => Tone::Ok,
        Channel::Accepted | Channel::StreamOpen => Tone::Neutral,
        Channel::ToolError => Tone::Warn,
        Channel::JsonrpcError => Tone::Bad,
        Channel::Http => Tone::Refused,
        Channel::Network | Channel::Malformed => Tone::Unknown,
    }
}

/// A spec verdict's tone.
pub(super) fn conformance_tone(c: crate::judge::spec::Conformance) -> Tone {
    use crate::judge::spec::Conformance;
    match c {
        Conformance::Conforms => Tone::Ok,
        Conformance::Deviates => Tone::Bad,
        Conformance::NotApplicable => Tone::Absent,
    }
}

/// One fact behind a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvidenceView {
    /// Structure, text or intent.
    pub kind: Option<Badge>,
    /// What was seen, in words.
    pub fact: String,
    /// For text evidence: where in the decoded message the phrase sits (a JSON pointer).
    pub pointer: Option<String>,
    /// The server's words the phrase was found in, with the phrase's range in characters.
    pub quote: Option<Quote>,
    /// The quote is the phrase only: the whole of the server's words are quoted by an earlier
    /// evidence line of the card. Only a surface that shows quotes says so
    /// ([`EvidenceView::fact_beside_quotes`]); a terminal shows no quote to point to.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub quoted_above: bool,
}

impl EvidenceView {
    /// The fact as a surface that shows the quotes says it: pointing to the quote above when the
    /// server's words were quoted by an earlier line.
    pub fn fact_beside_quotes(&self) -> String {
        if self.quoted_above {
            format!("{} (in the words quoted above)", self.fact)
        } else {
            self.fact.clone()
        }
    }
}

/// A piece of the server's text, with the part to highlight (in characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quote {
    /// The text, as the server wrote it (data: shown as text, never as markup).
    pub text: String,
    /// The highlighted range, in characters.
    pub highlight: Option<[usize; 2]>,
}

/// What the reader is told to do, or why there is nothing to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Answer {
    /// The advice for an answer that came.
    Advice(AdviceView),
    /// The request got no answer read to its end: no advice follows from it.
    NotAnswered(String),
    /// The probe did not run.
    Skipped {
        /// Why.
        reason: String,
        /// What the user can do about it.
        next_step: Option<String>,
        /// Both in the sentence the text reports print: `Probe D skipped: …; …`.
        line: String,
    },
    /// No advice is known (a connect row of a link).
    Nothing,
}

/// The advice for both authors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AdviceView {
    /// What an agent should do.
    pub action: Badge,
    /// The same, in a sentence (a link carries only the action).
    pub agent: Option<String>,
    /// Who must act (left out where the server author is the party and has nothing to change).
    pub party: Option<Badge>,
    /// What the server's author could change: one value.
    pub server: Option<ServerAdviceView>,
}

/// What the server's author could change: nothing (and why), or the changes — never both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "lines", rename_all = "snake_case")]
pub enum ServerAdviceView {
    /// Nothing to change: why.
    Nothing(String),
    /// The changes, the most important first.
    Changes(Vec<String>),
}

impl ServerAdviceView {
    /// The view of the core's advice.
    pub(crate) fn of(advice: &crate::judge::server_advice::ServerAdvice) -> ServerAdviceView {
        use crate::judge::server_advice::ServerAdvice;
        match advice {
            ServerAdvice::Nothing { text, .. } => ServerAdviceView::Nothing(text.to_string()),
            ServerAdvice::Changes(c) => {
                ServerAdviceView::Changes(c.iter().map(|c| c.text.to_string()).collect())
            }
        }
    }

    /// Its lines, as the text reports print them.
    pub fn lines(&self) -> Vec<&str> {
        match self {
            ServerAdviceView::Nothing(why) => vec![why.as_str()],
            ServerAdviceView::Changes(c) => c.iter().map(String::as_str).collect(),
        }
    }
}

/// A spec verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpecView {
    /// Conforms, deviates, not applicable.
    pub conformance: Badge,
    /// The protocol version judged against.
    pub version: String,
    /// Why.
    pub reason: String,
    /// The rule quoted (a link carries only its address).
    pub rule: Option<String>,
    /// Where the rule is (always on modelcontextprotocol.io).
    pub link: String,
}

impl SpecView {
    /// The answer does not do what its version asks.
    pub fn deviates(&self) -> bool {
        self.conformance.id == crate::judge::spec::Conformance::Deviates.as_str()
    }
}

/// A `WWW-Authenticate` challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    /// `Bearer`, …
    pub scheme: String,
    /// Its parameters, as sent.
    pub params: Vec<(String, String)>,
}

/// What went over the wire, for the card's disclosure (a live run only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum WireView {
    /// An HTTP request and its answer.
    Http {
        /// `Status 200`, or `Status —`.
        status: String,
        /// `12 ms`, or `—`.
        elapsed: String,
        /// How the body ended (`complete`, `deadline`…).
        body_end: String,
        /// The response headers the shell saw.
        response_headers: Vec<(String, String)>,
        /// The raw response body.
        body: String,
        /// `POST`, `GET`…
        method: String,
        /// The request's URL.
        url: String,
        /// The request's headers (secrets already redacted).
        request_headers: Vec<(String, String)>,
        /// The request's body.
        request_body: String,
        /// The request as a `curl` command, secrets as environment variables.
        curl: String,
    },
    /// A line to a child process and the lines it wrote.
    Stdio {
        /// `12 ms`, or `—`.
        elapsed: String,
        /// Whether the process was running, or how it ended.
        process: String,
        /// The lines read from its stdout.
        stdout: String,
        /// The last lines of its stderr (never in a link).
        stderr_tail: Option<String>,
        /// The command.
        command: String,
        /// The line written to its stdin.
        line_written: String,
    },
}

/// One probe's or check's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// A stable identifier for anchors and tests: `card-A`, `card-no-token`, `card-get`…
    pub id: String,
    /// `A · Unknown tool`, `Check · GET on the endpoint`…
    pub title: String,
    /// The channel the answer came on (none for a probe that did not run).
    pub channel: Option<Badge>,
    /// The tool called.
    pub tool: Option<String>,
    /// What carried the answer: `HTTP 200`, `HTTP —`, `stdio`.
    pub carrier: Option<String>,
    /// The JSON-RPC error code.
    pub jsonrpc_code: Option<i64>,
    /// The cause.
    pub cause: Option<Badge>,
    /// Which kind of fact decided the cause.
    pub decided_by: Option<Badge>,
    /// What holds for this answer alone (flags that hold for the whole run are in the summary).
    pub flags: Vec<Badge>,
    /// The facts behind the verdict.
    pub evidence: Vec<EvidenceView>,
    /// Advice, or why there is none.
    pub answer: Answer,
    /// The spec verdict.
    pub spec: Option<SpecView>,
    /// A challenge the answer carried.
    pub challenge: Option<ChallengeView>,
    /// The answer's JSON-RPC message, pretty (a link: a short excerpt), cut past 64 KiB.
    pub envelope: Option<String>,
    /// What the card says when the envelope was cut.
    pub envelope_note: Option<String>,
    /// What a link shares of a successful result instead of its content.
    pub withheld: Option<String>,
    /// Why the transport failed, in words.
    pub transport_error: Option<String>,
    /// What the decoder found wrong with the answer.
    pub problems: Vec<String>,
    /// What went over the wire (a live run only).
    pub wire: Option<WireView>,
}

impl CardView {
    /// A card with its id and title and nothing else yet.
    pub(super) fn blank(id: String, title: &str) -> CardView {
        CardView {
            id,
            title: title.to_string(),
            channel: None,
            tool: None,
            carrier: None,
            jsonrpc_code: None,
            cause: None,
            decided_by: None,
            flags: Vec::new(),
            evidence: Vec::new(),
            answer: Answer::Nothing,
            spec: None,
            challenge: None,
            envelope: None,
            envelope_note: None,
            withheld: None,
            transport_error: None,
            problems: Vec::new(),
            wire: None,
        }
    }

    /// The verdict in one line: `tool error · unknown tool · HTTP 200 · JSON-RPC -32602`.
    pub fn outcome_line(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.channel.iter().map(|b| b.label.clone()));
        parts.extend(self.cause.iter().map(|b| b.label.clone()));
        parts.extend(self.carrier.clone());
        parts.extend(self.jsonrpc_code.map(|c| format!("JSON-RPC {c}")));
        parts.join(" · ")
    }
}

/// A spec verdict in the summary's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerdictLine {
    /// What it is about: a card's title, or `origin`.
    pub about: String,
    /// Conforms, deviates, not applicable.
    pub conformance: Badge,
    /// Why, when the summary says it (the origin check).
    pub reason: Option<String>,
}

/// A run's summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SummaryView {
    /// What the score is called, on every surface.
    pub score_label: &'static str,
    /// The first sentence: what happened, cause first.
    pub headline: String,
    /// Distinguishability by structure alone: `2 of 3 pairs`, `n/a`.
    pub score: String,
    /// The endpoint as the run named it.
    pub endpoint: String,
    /// `serverInfo` as "name version", when known.
    pub server: Option<String>,
    /// The protocol version spoken, or that none was negotiated.
    pub protocol: String,
    /// `3 sequential rounds`, when probes ran.
    pub rounds: Option<String>,
    /// Spec verdicts, in card order.
    pub verdicts: Vec<VerdictLine>,
    /// What the reader should act on before reading on (probe C provoked nothing).
    pub warnings: Vec<String>,
    /// What holds for every answer of the run, said once.
    pub notes: Vec<String>,
    /// What says how the answers were seen, not what the server did: a page's footnote, below
    /// the cards.
    pub footnotes: Vec<String>,
    /// A link's provenance: when and with which version it was made.
    pub made: Option<(String, String)>,
    /// What to change first, and what next (a live or replayed run whose probes answered).
    pub fix_first: Option<super::fix_first::FixFirst>,
}

/// A whole report as the text surfaces show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// The summary.
    pub summary: SummaryView,
    /// The connect exchange when the run stopped there: the finding, shown first.
    pub connect_failed: Vec<CardView>,
    /// Probes A to D (a probe that did not run has a card that says why).
    pub probes: Vec<CardView>,
    /// The transport checks.
    pub checks: Vec<CardView>,
    /// Everything else (initialize, tools/list…), in the order it happened.
    pub connect: Vec<CardView>,
    /// Probes the run ended before (CI files list every probe; the page shows only what ran or
    /// was skipped).
    pub unrun: Vec<CardView>,
    /// The OAuth doctor's cards, when it ran.
    pub auth: Option<AuthView>,
}

impl SummaryView {
    /// The server as every surface names it: `serverInfo`'s name and version, or that it is
    /// unknown.
    pub fn server_text(&self) -> &str {
        self.server.as_deref().unwrap_or("unknown")
    }
}

impl ReportView {
    /// The cards a reader meets, in order: a failed connect, the probes, the checks.
    pub fn cards(&self) -> impl Iterator<Item = &CardView> {
        self.connect_failed
            .iter()
            .chain(&self.probes)
            .chain(&self.checks)
    }
}

/// The card id for a step as a link names it (`A`, `no_token`, `get`, `connect`).
pub(super) fn card_id(step_id: &str) -> String {
    format!("card-{}", step_id.replace('_', "-"))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Characters below U+1F000 that Unicode presents as emoji by default (Emoji_Presentation=Yes,
    /// emoji-data.txt of Unicode 15.1); everything from U+1F000 on is treated as emoji too.
    const EMOJI_PRESENTATION: &[(u32, u32)] = &[
        (0x231A, 0x231B),
        (0x23E9, 0x23EC),
        (0x23F0, 0x23F0),
        (0x23F3, 0x23F3),
        (0x25FD, 0x25FE),
        (0x2614, 0x2615),
        (0x2648, 0x2653),
        (0x267F, 0x267F),
        (0x2693, 0x2693),
        (0x26A1, 0x26A1),
        (0x26AA, 0x26AB),
        (0x26BD, 0x26BE),
        (0x26C4, 0x26C5),
        (0x26CE, 0x26CE),
        (0x26D4, 0x26D4),
        (0x26EA, 0x26EA),
        (0x26F2, 0x26F3),
        (0x26F5, 0x26F5),
        (0x26FA, 0x26FA),
        (0x26FD, 0x26FD),
        (0x2705, 0x2705),
        (0x270A, 0x270B),
        (0x2728, 0x2728),
        (0x274C, 0x274C),
        (0x274E, 0x274E),
        (0x2753, 0x2755),
        (0x2757, 0x2757),
        (0x2795, 0x2797),
        (0x27B0, 0x27B0),
        (0x27BF, 0x27BF),
        (0x2B1B, 0x2B1C),
        (0x2B50, 0x2B50),
        (0x2B55, 0x2B55),
    ];

    fn is_emoji(c: char) -> bool {
        let c = c as u32;
        c >= 0x1F000
            || EMOJI_PRESENTATION
                .iter()
                .any(|(a, b)| (*a..=*b).contains(&c))
    }

    #[test]
    fn no_badge_symbol_is_an_emoji() {
        assert!(is_emoji('⛔'), "the control: the old Http symbol is caught");
        for tone in Tone::ALL {
            assert!(!tone.symbol().chars().any(is_emoji), "{tone}");
        }
    }

    #[test]
    fn an_identifier_a_build_does_not_know_is_shown_as_it_came() {
        use crate::vocabulary::cause::Channel;
        let known = Badge::read::<Channel>("tool_error", channel_tone);
        assert_eq!(
            (known.label.as_str(), known.tone),
            ("tool error", Tone::Warn)
        );
        let unknown = Badge::read::<Channel>("carrier_pigeon", channel_tone);
        assert_eq!(
            (unknown.label.as_str(), unknown.tone),
            ("carrier_pigeon", Tone::Unknown)
        );
    }
}

/// The doctor's cards and the revision judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuthView {
    /// `Judged against 2025-11-25 (the version this run asked for) · 3 fetches`.
    pub heading: String,
    /// The cards.
    pub cards: Vec<AuthCardView>,
    /// What a page-based client meets here (CORS), or that it was not judged.
    pub browser: String,
}

/// One card of the doctor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuthCardView {
    /// `card-auth_prm_path`…
    pub id: String,
    /// `Auth · resource metadata (path well-known)`…
    pub title: String,
    /// The URL fetched or shown: text, never a link.
    pub url: Option<String>,
    /// What happened.
    pub outcome: String,
    /// The findings.
    pub findings: Vec<FindingView>,
    /// Whether CORS let the page make this card's call.
    pub browser: Option<BrowserView>,
    /// The document, pretty, when it was JSON.
    pub envelope: Option<String>,
    /// What went over the wire.
    pub wire: Option<WireView>,
}

/// Whether CORS let a page make one call of the sign-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrowserView {
    /// The verdict.
    pub access: Badge,
    /// What was seen and what it means.
    pub detail: String,
}

impl BrowserView {
    /// The verdict in one line: `browser: no allow origin — the host answers, …`.
    pub fn line(&self) -> String {
        format!("browser: {} — {}", self.access.label, self.detail)
    }
}

/// A browser verdict's tone.
pub(super) fn access_tone(a: crate::run::auth::BrowserAccess) -> Tone {
    use crate::run::auth::BrowserAccess;
    match a {
        BrowserAccess::Allowed => Tone::Ok,
        BrowserAccess::NoAllowOrigin | BrowserAccess::PreflightRefused => Tone::Refused,
        BrowserAccess::Unreachable | BrowserAccess::ChallengeHidden => Tone::Warn,
        BrowserAccess::NotJudged => Tone::Absent,
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindingView {
    /// The check.
    pub check: Badge,
    /// Its verdict at the revision judged.
    pub conformance: Badge,
    /// How strongly that revision asks (none: it says nothing of it).
    pub level: Option<Badge>,
    /// The rule, in our words.
    pub rule: Option<String>,
    /// Where the rule is written.
    pub link: Option<String>,
    /// What was seen.
    pub detail: String,
    /// `2025-06-18: deviates` for each revision that judges otherwise.
    pub elsewhere: Option<String>,
}

impl FindingView {
    /// The finding in one line: `deviates (must) · as issuer matches — issuer = "…"`.
    pub fn line(&self) -> String {
        let level = self
            .level
            .as_ref()
            .map(|l| format!(" ({})", l.label))
            .unwrap_or_default();
        format!(
            "{}{level} · {} — {}",
            self.conformance.label, self.check.label, self.detail
        )
    }
}
