//! The engine driven over recorded answers: each request answered by the recording that fits it
//! best, or by an exchange that says nothing was recorded.

use serde_json::Value;

use super::era::era_of;
use super::matching::{answered_well, fit, has_header, message, rpc_method};
use super::outcome::{MAX_CAPTURES, ReplayProblem, Replayed};
use super::recording::Recording;
use crate::output::runs::OneRun;
use crate::run::engine::{Engine, EngineConfig, Era, Mode, Outgoing, RunPhase, Step};
use crate::secrets::redact::Credentials;
use crate::vocabulary::exchange::{Exchange, TransportError, Vantage};
use crate::vocabulary::limits::Limits;

/// Replays `captures` through the engine (see the module's rules), speaking `era` when given.
pub fn replay(captures: &[Exchange], era: Option<Era>) -> Result<Replayed, ReplayProblem> {
    replay_with_secrets(captures, era, crate::secrets::redact::Secrets::default())
}

/// [`replay`], redacting `secrets` (values the recordings may hold: a token, a key) from every
/// recorded exchange as a live run redacts its own.
pub(crate) fn replay_with_secrets(
    captures: &[Exchange],
    era: Option<Era>,
    secrets: crate::secrets::redact::Secrets,
) -> Result<Replayed, ReplayProblem> {
    let recording = Recording {
        exchanges: captures.to_vec(),
        ..Recording::default()
    };
    replay_recording(&recording, era, secrets)
}

/// Replays a recording: its exchanges, with the plan and era it recorded (`era` overrides the
/// era), refusing captures of more than one run (named by their sources).
pub fn replay_recording(
    recording: &Recording,
    era: Option<Era>,
    secrets: crate::secrets::redact::Secrets,
) -> Result<Replayed, ReplayProblem> {
    let captures = &recording.exchanges[..];
    let plan = recording.plan.as_ref();
    let era = era.or_else(|| recording.era.clone());
    if captures.is_empty() {
        return Err(ReplayProblem::Empty);
    }
    if captures.len() > MAX_CAPTURES {
        return Err(ReplayProblem::TooMany(captures.len()));
    }
    // Each recorded request body parsed once: the era, the connect and every match read them.
    let recorded: Vec<Option<Value>> = captures
        .iter()
        .map(|c| message(c.request.body.as_deref()))
        .collect();
    let connect = captures.iter().zip(&recorded).find(|(_, m)| {
        matches!(
            rpc_method(m.as_ref()),
            Some("initialize" | "server/discover")
        )
    });
    let Some((connect, _)) = connect else {
        return Err(ReplayProblem::NoConnect);
    };
    let methods: Vec<Option<&str>> = recorded.iter().map(|m| rpc_method(m.as_ref())).collect();
    let one_run = crate::output::runs::one_run(captures, &methods, &recording.sources)
        .map_err(ReplayProblem::MixedRuns)?;
    let has_token = captures
        .iter()
        .any(|c| has_header(&c.request.headers, "authorization"));
    let mut engine = Engine::new(EngineConfig {
        endpoint: crate::run::endpoint::Endpoint::as_recorded(&connect.request.url),
        era: era.unwrap_or_else(|| era_of(&recorded)),
        mode: plan.map_or(Mode::Quick, |p| p.mode),
        has_token,
        random: recorded_random(captures, &recorded),
        limits: Limits::default(),
        client_version: env!("CARGO_PKG_VERSION").into(),
        secrets,
        transport: connect
            .transport
            .unwrap_or(crate::vocabulary::exchange::Transport::Http),
    });
    // What the replay itself records (an answer not recorded) belongs to the run it replays.
    engine.set_run_id(match &one_run {
        OneRun::RunId(id) => Some(id.clone()),
        _ => None,
    });
    // Whether a recording answered well, classified once and only when a connect step asks.
    let mut answered: Vec<Option<bool>> = vec![None; captures.len()];
    let mut free = vec![true; captures.len()];
    let mut unanswered = Vec::new();
    // Each round sends at least one request or answers the consent step; a run sends a bounded
    // number of requests, and the cap below is a backstop against a loop.
    for _ in 0..4 * MAX_CAPTURES {
        let poll = engine.poll(0.0);
        if poll.done {
            break;
        }
        if poll.send.is_empty() {
            let phase = engine.phase();
            if phase == RunPhase::Review {
                let edits = plan.map(|p| &p.edits[..]).unwrap_or_default();
                engine.apply_review(edits).map_err(ReplayProblem::Plan)?;
                continue;
            }
            if phase == RunPhase::Consent {
                let yes = engine.consent_rows().iter().any(|row| {
                    row.proposal.as_ref().is_some_and(|p| {
                        let ours = message(Some(&p.payload));
                        let name = ours.as_ref().and_then(|o| o.pointer("/params/name"));
                        name.is_some()
                            && recorded.iter().enumerate().any(|(i, t)| {
                                free[i]
                                    && t.as_ref().and_then(|t| t.pointer("/params/name")) == name
                            })
                    })
                });
                engine.answer_consent(yes);
                continue;
            }
            break;
        }
        // Connect and catalogue steps first, so a probe is matched against the catalogue the
        // same round reads (answers in any order make the same report: the engine's guarantee).
        let (probes, others): (Vec<Outgoing>, Vec<Outgoing>) = poll
            .send
            .into_iter()
            .partition(|o| matches!(o.step, Step::Probe(_)));
        for out in others.into_iter().chain(probes) {
            let sends_token = out.with_token && has_token;
            let tools = engine.tools().to_vec();
            let ours = message(out.body.as_deref());
            let best = captures
                .iter()
                .enumerate()
                .filter(|(i, _)| free[*i])
                .filter_map(|(i, c)| {
                    fit(
                        &out,
                        ours.as_ref(),
                        sends_token,
                        c,
                        recorded[i].as_ref(),
                        &tools,
                        &mut || *answered[i].get_or_insert_with(|| answered_well(c)),
                    )
                    .map(|s| (s, i))
                })
                // The highest score; the first given among equals.
                .max_by(|(a, i), (b, j)| a.cmp(b).then(j.cmp(i)));
            match best {
                Some((_, i)) => {
                    free[i] = false;
                    // The version a recording says it negotiated is the replay's to find again,
                    // as it was the live run's (the engine writes it into what it records).
                    let mut ex = captures[i].clone();
                    ex.negotiated_version = None;
                    engine.handle(out.step, ex);
                }
                None => {
                    unanswered.push(out.step);
                    engine.handle(out.step, not_recorded(&out, sends_token));
                }
            }
        }
    }
    let unused: Vec<usize> = free
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.then_some(i))
        .collect();
    let mut report = engine.report();
    if plan.is_none() {
        report.notes.push(
            "replay: the recordings hold no plan (they are exchanges, not a report), so a Quick check was replayed"
                .into(),
        );
    }
    Ok(Replayed {
        report,
        used: captures.len() - unused.len(),
        unused,
        unanswered,
        plan: plan.map(|p| p.mode),
        one_run,
    })
}

/// The randomness of the recorded run, where its probe A names a tool the way ours do (so the
/// replayed plan names the same tool); else 0.
fn recorded_random(captures: &[Exchange], recorded: &[Option<Value>]) -> u64 {
    captures
        .iter()
        .zip(recorded)
        .filter(|(c, _)| c.intent.as_deref() == Some("A"))
        .find_map(|(_, m)| {
            m.as_ref()?
                .pointer("/params/name")
                .and_then(Value::as_str)
                .and_then(crate::run::catalogue::random_of_unknown_name)
        })
        .unwrap_or(0)
}

/// The exchange for a request no recording answers: the request as it would have gone (the token
/// marked where it would have been sent), and why nothing came back.
fn not_recorded(out: &Outgoing, sends_token: bool) -> Exchange {
    let creds = Credentials::new(String::new(), Vec::new(), Vec::new());
    let mut ex = crate::secrets::recorded::unanswered_exchange(out, &creds, Vantage::Direct);
    ex.request = crate::secrets::recorded::recorded_request(out, &[], &[], sends_token);
    ex.transport_error = Some(TransportError::NotRecorded);
    ex.transport_error_detail = Some("replay: no recorded exchange fits this request".into());
    ex
}
