//! One exchange fully assessed: the verdict, the advice for its cause and flags, and (when the probe's
//! intent is known) the spec verdict for the version in play.

use serde::Serialize;

use crate::judge::advice::{self, Advice};
use crate::judge::classify::{self, Options, Verdict};
use crate::judge::server_advice::{self, ServerAdvice};
use crate::judge::spec::{self, SpecVerdict};
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::probe::Probe;

/// A verdict with everything an agent author and a server author need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// The classification.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// What to do about the cause, and who must act.
    pub advice: Advice,
    /// One line per flag for the server author.
    pub flag_advice: Vec<&'static str>,
    /// The probe this exchange was, when known.
    pub intent: Option<Probe>,
    /// The protocol version used for the spec verdict, and where it came from.
    pub version: Option<String>,
    /// Where `version` came from: `option`, `negotiated_version`, `request_header` or `request_meta`.
    pub version_source: Option<&'static str>,
    /// The spec verdict, when the intent and the version are known.
    pub spec: Option<SpecVerdict>,
    /// What the server author could change, as one value (the advice's `server` line and the
    /// flags' lines, without a change that would make `spec` deviate): what the cards show.
    #[serde(skip)]
    pub server: ServerAdvice,
}

/// The version in play: the caller's, the exchange's negotiated one, else what our request declared
/// (its `MCP-Protocol-Version` header or its `_meta`) — the request is part of the exchange.
fn version_in_play(ex: &Exchange, opts: &Options) -> Option<(String, &'static str)> {
    if let Some(v) = &opts.negotiated_version {
        return Some((v.clone(), "option"));
    }
    if let Some(v) = &ex.negotiated_version {
        return Some((v.clone(), "negotiated_version"));
    }
    if let Some(v) = ex
        .request
        .header(crate::vocabulary::header::PROTOCOL_VERSION)
    {
        return Some((v.to_string(), "request_header"));
    }
    let body = ex.request.body.as_deref()?;
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    value
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .and_then(serde_json::Value::as_str)
        .map(|v| (v.to_string(), "request_meta"))
}

/// Classifies and assesses one exchange.
pub fn assess(ex: &Exchange, opts: &Options) -> Assessment {
    let verdict = classify::classify(ex, opts);
    let intent = opts
        .intent
        .as_deref()
        .or(ex.intent.as_deref())
        .and_then(Probe::parse_intent);
    let version = version_in_play(ex, opts)
        .filter(|(v, _)| crate::vocabulary::protocol::ProtocolVersion::parse(v).is_some());
    let spec = match (intent, &version) {
        (Some(probe), Some((v, _))) => Some(spec::verdict(probe, v, &verdict)),
        _ => None,
    };
    let server = server_of(
        &verdict,
        &opts.missing_fields,
        intent,
        version.as_ref().map(|(v, _)| v.as_str()),
    );
    Assessment {
        server,
        advice: server_advice::fitted(&verdict, &opts.missing_fields),
        flag_advice: verdict.flags.iter().map(|f| advice::for_flag(*f)).collect(),
        intent,
        version_source: version.as_ref().map(|(_, s)| *s),
        version: version.map(|(v, _)| v),
        spec,
        verdict,
    }
}

impl Assessment {
    /// A flag found after the answer was assessed (an echo the capture saw): the verdict's flags,
    /// their lines and the server author's advice stay in step, so the advice never misses a flag
    /// the card shows.
    pub(crate) fn add_flag(
        &mut self,
        flag: crate::vocabulary::cause::Flag,
        missing_fields: &[String],
    ) {
        if self.verdict.flags.contains(&flag) {
            return;
        }
        self.verdict.flags.push(flag);
        self.flag_advice.push(advice::for_flag(flag));
        self.server = server_of(
            &self.verdict,
            missing_fields,
            self.intent,
            self.version.as_deref(),
        );
    }
}

/// What the server author could change about `verdict`: its line and its flags' changes, judged
/// against the probe's spec at `version`.
fn server_of(
    verdict: &Verdict,
    missing_fields: &[String],
    intent: Option<Probe>,
    version: Option<&str>,
) -> ServerAdvice {
    server_advice::server_advice(
        verdict,
        server_advice::server_line(verdict, missing_fields),
        intent.zip(version),
    )
}
