//! What the server author could change about one answer, as one value: nothing to change (and
//! why) or changes, each with where it moves the answer, a change that would make the card's spec
//! verdict deviate never offered; each sentence with the id a share link carries.

use crate::judge::advice::{Advice, Party, for_cause, for_flag};
use crate::judge::classify::Verdict;
use crate::vocabulary::cause::{Cause, Channel, Flag};

/// The advice for this answer: the cause's row, with the server author's line fitted to what was
/// observed. Where the answer already does what helps agents, the line says "Nothing to change" and
/// why; where it does half of it, it says which half is missing. `missing_fields` are the required
/// arguments probe B left out.
pub fn fitted(v: &Verdict, missing_fields: &[String]) -> Advice {
    let mut advice = *for_cause(v.cause);
    advice.server = server_line(v, missing_fields).text();
    advice
}

/// The server author's line about one answer, typed: nothing to change (and why), or a change and
/// what it moves the answer to (its channel, when it moves one), so a change can be judged
/// against the spec before it is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ServerLine {
    /// The answer already does what helps agents: why.
    Nothing {
        /// What a link carries for it.
        id: &'static str,
        /// Why, in a sentence.
        text: &'static str,
    },
    /// A change.
    Change(ServerChange),
}

/// One change the server author could make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerChange {
    /// What a link carries for it: a cause's id (its row), a fitted line's id, or a flag's.
    pub id: &'static str,
    /// The change, in a sentence.
    pub text: &'static str,
    /// The channel the answer would then come on (`None`: the channel stays).
    pub moves_to: Option<Channel>,
}

impl ServerLine {
    /// Its sentence.
    pub(crate) fn text(self) -> &'static str {
        match self {
            ServerLine::Nothing { text, .. } => text,
            ServerLine::Change(c) => c.text,
        }
    }

    /// Its id.
    pub(crate) fn id(self) -> &'static str {
        match self {
            ServerLine::Nothing { id, .. } => id,
            ServerLine::Change(c) => c.id,
        }
    }
}

/// Nothing to change, and why.
const fn nothing(id: &'static str, text: &'static str) -> ServerLine {
    ServerLine::Nothing { id, text }
}

/// A change that keeps the answer's channel.
const fn stays(id: &'static str, text: &'static str) -> ServerLine {
    ServerLine::Change(ServerChange {
        id,
        text,
        moves_to: None,
    })
}

/// A change that moves the answer to `channel`.
const fn moves(id: &'static str, text: &'static str, channel: Channel) -> ServerLine {
    ServerLine::Change(ServerChange {
        id,
        text,
        moves_to: Some(channel),
    })
}

/// The server author's line for this answer: fitted to what was observed where that differs
/// from the cause's row, else the row's line.
pub(crate) fn server_line(v: &Verdict, missing_fields: &[String]) -> ServerLine {
    fitted_server_line(v, missing_fields).unwrap_or_else(|| row_line(v.cause))
}

/// The row's line for a cause, typed.
fn row_line(cause: Cause) -> ServerLine {
    let (id, text) = (cause.as_str(), for_cause(cause).server);
    match cause {
        Cause::None | Cause::Aborted | Cause::NotAcceptable | Cause::MethodNotAllowed => {
            nothing(id, text)
        }
        Cause::UnknownTool => moves(id, text, Channel::JsonrpcError),
        Cause::InvalidArguments | Cause::ToolExecution | Cause::ServerExited => {
            moves(id, text, Channel::ToolError)
        }
        _ => stays(id, text),
    }
}

/// A server-author sentence by the id a link carries (a cause's row, a fitted line, a flag's
/// change), in this build's words; `None` for an id this build does not know.
pub(crate) fn server_sentence(id: &str) -> Option<ServerLine> {
    if let Some(cause) = Cause::parse(id) {
        return Some(row_line(cause));
    }
    if let Some(line) = fit(id) {
        return Some(line);
    }
    if id == NOTHING_WITHIN_THE_SPEC.id() {
        return Some(NOTHING_WITHIN_THE_SPEC);
    }
    Flag::ALL
        .iter()
        .flat_map(|f| flag_changes(*f))
        .find(|c| c.id == id)
        .map(ServerLine::Change)
}

/// What the server author could change about one answer: one value, so "nothing to change" and a
/// change never stand together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerAdvice {
    /// Nothing: why (the id a link carries, and the sentence).
    Nothing {
        /// What a link carries for it.
        id: &'static str,
        /// Why, in a sentence.
        text: &'static str,
    },
    /// The changes, the most important first.
    Changes(Vec<ServerChange>),
}

impl ServerAdvice {
    /// The advice a link carries as ids (`nothing` and the ids), in this build's words; `None`
    /// when an id is unknown or the shape is not one advice (the link decoder refuses both).
    pub(crate) fn of_ids(nothing: bool, ids: &[String]) -> Option<ServerAdvice> {
        let lines: Vec<ServerLine> = ids
            .iter()
            .map(|id| server_sentence(id))
            .collect::<Option<_>>()?;
        match (nothing, lines.as_slice()) {
            (true, [ServerLine::Nothing { id, text }]) => Some(ServerAdvice::Nothing { id, text }),
            (false, [_, ..]) => lines
                .iter()
                .map(|l| match l {
                    ServerLine::Change(c) => Some(*c),
                    ServerLine::Nothing { .. } => None,
                })
                .collect::<Option<_>>()
                .map(ServerAdvice::Changes),
            _ => None,
        }
    }

    /// Who must act, as a card shows it beside this advice: never the server author when it has
    /// nothing to change.
    pub fn who_must_act(&self, party: Party) -> Option<Party> {
        match (self, party) {
            (ServerAdvice::Nothing { .. }, Party::ServerAuthor) => None,
            (_, party) => Some(party),
        }
    }
}

/// When every change that would be offered moves the answer out of the spec.
const NOTHING_WITHIN_THE_SPEC: ServerLine = nothing(
    "nothing_within_the_spec",
    "Nothing to change that keeps this answer within the spec of this version.",
);

/// The server author's advice for an answer: its line and its flags' changes, without any change
/// that would make `judged`'s spec verdict (the probe, at the negotiated version) deviate where it
/// does not: such a change is never offered.
pub(crate) fn server_advice(
    v: &Verdict,
    line: ServerLine,
    judged: Option<(crate::vocabulary::probe::Probe, &str)>,
) -> ServerAdvice {
    let mut changes: Vec<ServerChange> = match line {
        ServerLine::Change(c) => vec![c],
        ServerLine::Nothing { .. } => Vec::new(),
    };
    changes.extend(v.own_flags().flat_map(flag_changes));
    let offered = changes.len();
    changes.retain(|c| keeps_the_spec(v, *c, judged));
    let why = match line {
        ServerLine::Nothing { id, text } if offered == 0 => (id, text),
        _ => (NOTHING_WITHIN_THE_SPEC.id(), NOTHING_WITHIN_THE_SPEC.text()),
    };
    if let (ServerLine::Nothing { id, text }, false) = (line, changes.is_empty())
        && crate::vocabulary::seeded_bug::is_on(
            crate::vocabulary::seeded_bug::SeededBug::NothingAmongChanges,
        )
    {
        changes.insert(
            0,
            ServerChange {
                id,
                text,
                moves_to: None,
            },
        );
    }
    match changes.is_empty() {
        false => ServerAdvice::Changes(changes),
        true => ServerAdvice::Nothing {
            id: why.0,
            text: why.1,
        },
    }
}

/// Whether `change` leaves the spec verdict of `judged` as good as it is: a change that moves the
/// answer to another channel is judged on the answer it would give.
pub(crate) fn keeps_the_spec(
    v: &Verdict,
    change: ServerChange,
    judged: Option<(crate::vocabulary::probe::Probe, &str)>,
) -> bool {
    use crate::judge::spec::{Conformance, verdict};
    let (Some(channel), Some((probe, version))) = (change.moves_to, judged) else {
        return true;
    };
    if crate::vocabulary::seeded_bug::is_on(
        crate::vocabulary::seeded_bug::SeededBug::AnyChangeOffered,
    ) {
        return true;
    }
    let mut after = v.clone();
    after.channel = channel;
    if channel == Channel::JsonrpcError && after.jsonrpc_code.is_none() {
        after.jsonrpc_code = Some(-32602);
    }
    let now = verdict(probe, version, v).conformance;
    now == Conformance::Deviates
        || verdict(probe, version, &after).conformance != Conformance::Deviates
}

/// The changes a flag asks of the server author (a flag with two remedies gives both, each with
/// where it leads).
pub(crate) fn flag_changes(flag: Flag) -> Vec<ServerChange> {
    let one = |text, moves_to| {
        vec![ServerChange {
            id: flag.as_str(),
            text,
            moves_to,
        }]
    };
    match flag {
        Flag::CodeInText => vec![
            ServerChange {
                id: flag.as_str(),
                text: "A JSON-RPC code is written into prose, where clients cannot read it: drop the code from the text.",
                moves_to: None,
            },
            ServerChange {
                id: "code_in_text_frame",
                text: "Or answer with a JSON-RPC error frame, where clients read the code.",
                moves_to: Some(Channel::JsonrpcError),
            },
        ],
        Flag::SoftFailureSuspected => one(for_flag(flag), Some(Channel::ToolError)),
        _ => one(for_flag(flag), None),
    }
}

/// The fitted lines (see [`fitted_server_line`]), each with the id a share link carries: an id
/// keeps its meaning, while its words may change from one build to the next.
const FITTED: &[ServerLine] = &[
    nothing(
        "fit_unknown_tool_1",
        "Nothing to change: an unknown tool already comes as a JSON-RPC error -32602, which clients tell apart from a failed run.",
    ),
    stays(
        "fit_unknown_tool_2",
        "An unknown tool already comes as a JSON-RPC error; give it the code -32602 (invalid params) so clients can read the cause from the code, not the prose.",
    ),
    nothing(
        "fit_invalid_arguments_1",
        "Nothing to change: the refusal is an isError result that names the missing field, so the model can fix the call.",
    ),
    moves(
        "fit_invalid_arguments_2",
        "The refusal already names the missing field; send it as an isError result so the model sees it and can fix the call (SEP-1303, 2025-11-25).",
        Channel::ToolError,
    ),
    stays(
        "fit_tool_execution_1",
        "The failure already comes as an isError result, but its message is withheld: put a safe, actionable message in the text.",
    ),
    nothing(
        "fit_tool_execution_2",
        "Nothing to change: the failure comes as an isError result with its message, which the model and the user can read.",
    ),
    nothing(
        "fit_method_not_found_1",
        "Nothing to change: an unknown method comes as -32601 with HTTP 404.",
    ),
    nothing(
        "fit_method_not_found_2",
        "Nothing to change up to 2025-11-25: an unknown method comes as -32601 (a 2026-07-28 server also answers it with HTTP 404).",
    ),
    nothing(
        "fit_invalid_request_1",
        "Nothing to change: the malformed request is refused with a JSON-RPC error of the right code (-32600 or -32602).",
    ),
    nothing(
        "fit_parse_error_1",
        "Nothing to change: an unparseable body gets HTTP 400 with a JSON-RPC -32700 error.",
    ),
    nothing(
        "fit_unauthenticated_1",
        "Nothing to change: the 401 already names its resource_metadata, so clients can discover how to sign in.",
    ),
    nothing(
        "fit_insufficient_scope_1",
        "Nothing to change: the 403 says insufficient_scope and names the scope to ask for.",
    ),
    stays(
        "fit_insufficient_scope_2",
        "The 403 says insufficient_scope but not which scope: add scope=… to the challenge so clients know what to ask for.",
    ),
    stays(
        "fit_insufficient_scope_3",
        "The 403 names a scope but not the error: add error=\"insufficient_scope\" so clients know to ask for more scope rather than give up.",
    ),
    stays(
        "fit_origin_rejected_1",
        "The 403 is what the spec asks for an Origin the server does not trust; to use this page, allow exactly this origin (never '*', never turn the check off).",
    ),
    nothing(
        "fit_unsupported_media_type_1",
        "Nothing to change: a wrong Content-Type gets 415 with a JSON-RPC error body.",
    ),
    stays(
        "fit_unsupported_media_type_2",
        "The 415 is right; add a JSON-RPC error body that says which Content-Type to send.",
    ),
    nothing(
        "fit_session_required_1",
        "Nothing to change: a request without a session id gets 400, as the spec asks.",
    ),
    nothing(
        "fit_session_not_found_1",
        "Nothing to change: an unknown session gets 404, so clients know to initialize again.",
    ),
    nothing(
        "fit_protocol_version_unsupported_1",
        "Nothing to change: the error lists the supported versions as data, so clients can pick one.",
    ),
    stays(
        "fit_protocol_version_unsupported_2",
        "The error lists the supported versions in prose only; give them as data (2026-07-28: -32022 with data.supported) so clients can pick one without parsing text.",
    ),
    nothing(
        "fit_header_mismatch_1",
        "Nothing to change: a header that disagrees with the body gets 400 with -32020.",
    ),
];

/// A fitted line by its id.
fn fit(id: &str) -> Option<ServerLine> {
    FITTED.iter().find(|l| l.id() == id).copied()
}

/// The server author's line for this answer, when it differs from the cause's general line. Every
/// arm is checked in `tests/advice.rs` on one capture that gets it and one that does not.
fn fitted_server_line(v: &Verdict, missing_fields: &[String]) -> Option<ServerLine> {
    let code = v.jsonrpc_code;
    let status = v.http_status;
    let in_frame = v.channel == Channel::JsonrpcError;
    let challenge = |name: &str| v.challenge.as_ref().and_then(|c| c.param(name));
    Some(match v.cause {
        Cause::UnknownTool if in_frame && code == Some(-32602) => fit("fit_unknown_tool_1")?,
        Cause::UnknownTool if in_frame => fit("fit_unknown_tool_2")?,
        Cause::InvalidArguments => {
            let text = verdict_text(v);
            if !missing_fields.iter().any(|f| mentions_word(&text, f)) {
                return None;
            }
            if v.channel == Channel::ToolError {
                fit("fit_invalid_arguments_1")?
            } else {
                fit("fit_invalid_arguments_2")?
            }
        }
        Cause::ToolExecution if v.channel == Channel::ToolError => {
            if v.flags.contains(&Flag::MessageWithheld) {
                fit("fit_tool_execution_1")?
            } else {
                fit("fit_tool_execution_2")?
            }
        }
        Cause::MethodNotFound if code == Some(-32601) && status == Some(404) => {
            fit("fit_method_not_found_1")?
        }
        Cause::MethodNotFound if code == Some(-32601) => fit("fit_method_not_found_2")?,
        Cause::InvalidRequest if matches!(code, Some(-32600 | -32602)) => {
            fit("fit_invalid_request_1")?
        }
        Cause::ParseError if code == Some(-32700) && status == Some(400) => {
            fit("fit_parse_error_1")?
        }
        Cause::Unauthenticated if challenge("resource_metadata").is_some() => {
            fit("fit_unauthenticated_1")?
        }
        Cause::InsufficientScope => {
            let names_error = challenge("error").is_some_and(|e| e == "insufficient_scope");
            match (names_error, challenge("scope").is_some()) {
                (true, true) => fit("fit_insufficient_scope_1")?,
                (true, false) => fit("fit_insufficient_scope_2")?,
                (false, true) => fit("fit_insufficient_scope_3")?,
                (false, false) => return None,
            }
        }
        Cause::OriginRejected if status == Some(403) => fit("fit_origin_rejected_1")?,
        Cause::UnsupportedMediaType if status == Some(415) && v.message.is_some() => {
            fit("fit_unsupported_media_type_1")?
        }
        Cause::UnsupportedMediaType if status == Some(415) => fit("fit_unsupported_media_type_2")?,
        Cause::SessionRequired if status == Some(400) => fit("fit_session_required_1")?,
        Cause::SessionNotFound if status == Some(404) => fit("fit_session_not_found_1")?,
        Cause::ProtocolVersionUnsupported => {
            let listed = v
                .message
                .as_ref()
                .and_then(|m| m.pointer("/error/data/supported"))
                .is_some_and(|s| s.as_array().is_some_and(|a| !a.is_empty()));
            if listed {
                fit("fit_protocol_version_unsupported_1")?
            } else if verdict_text(v).contains("supported versions") {
                fit("fit_protocol_version_unsupported_2")?
            } else {
                return None;
            }
        }
        Cause::HeaderMismatch if code == Some(-32020) && status == Some(400) => {
            fit("fit_header_mismatch_1")?
        }
        _ => return None,
    })
}

/// The texts an answer carries (the JSON-RPC message, `error.data`, the isError text), lower-cased.
fn verdict_text(v: &Verdict) -> String {
    let Some(m) = &v.message else {
        return String::new();
    };
    let mut out = String::new();
    for p in ["/error/message", "/error/data"] {
        if let Some(t) = m.pointer(p) {
            out.push_str(&t.to_string());
            out.push('\n');
        }
    }
    if let Some(items) = m.pointer("/result/content").and_then(|c| c.as_array()) {
        for item in items {
            if let Some(t) = item.get("text").and_then(|t| t.as_str()) {
                out.push_str(t);
                out.push('\n');
            }
        }
    }
    out.to_lowercase()
}

/// `word` occurs in `text` (already lower-cased) with no letter, digit or underscore on either side.
fn mentions_word(text: &str, word: &str) -> bool {
    let word = word.to_lowercase();
    if word.is_empty() {
        return false;
    }
    let is_part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(&word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_part) && !after.is_some_and(is_part)
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A link carries a server sentence by its id: the ids are one vocabulary (unique, none a
    /// cause's or a flag's but their own rows), and each resolves to its own line.
    #[test]
    fn every_server_sentence_has_one_id_that_resolves_to_it() {
        let mut ids: Vec<&str> = FITTED.iter().map(|l| l.id()).collect();
        ids.extend(Cause::ALL.iter().map(|c| row_line(*c).id()));
        ids.extend(
            Flag::ALL
                .iter()
                .flat_map(|f| flag_changes(*f))
                .map(|c| c.id),
        );
        ids.push(NOTHING_WITHIN_THE_SPEC.id());
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        for id in ids {
            assert_eq!(server_sentence(id).map(|l| l.id()), Some(id));
        }
        assert_eq!(server_sentence("no_such_sentence"), None);
    }
}
