//! Every identifier this tool writes into its outputs (causes, channels, actions, check ids, step
//! intents…) with its words, and the advice table's sentences, as one list: the path scrub never
//! hides one of ours, whatever the endpoint's path holds.

use crate::judge::advice::{AgentAction, Party};
use crate::judge::outcome::{MadeOn, RetrySafety};
use crate::judge::spec::Conformance;
use crate::run::auth::{AuthCheck, BrowserAccess, Level};
use crate::run::catalogue::ToolRisk;
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag, Interrupt, RunEnd, StopReason};
use crate::vocabulary::exchange::{BodyEnd, Transport, TransportError, Vantage};
use crate::vocabulary::labelled::Labelled;
use crate::vocabulary::probe::Probe;
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::Step;

/// Each identifier and its words (`network_or_cors`, `network or cors`).
fn of<T: Labelled>(all: &[T], out: &mut Vec<String>) {
    for v in all {
        out.push(v.id().to_string());
        out.push(v.words());
    }
}

/// Every identifier and its words, the step intents (`no_token`, `get`), the advice table's
/// sentences and the skip reasons' ids.
pub(crate) fn all() -> Vec<String> {
    let mut out = Vec::new();
    of(Cause::ALL, &mut out);
    of(Channel::ALL, &mut out);
    of(DecidedBy::ALL, &mut out);
    of(Flag::ALL, &mut out);
    of(StopReason::ALL, &mut out);
    of(RunEnd::ALL, &mut out);
    of(Interrupt::ALL, &mut out);
    of(ProbeName::ALL, &mut out);
    of(TransportError::ALL, &mut out);
    of(BodyEnd::ALL, &mut out);
    of(Vantage::ALL, &mut out);
    of(Transport::ALL, &mut out);
    of(AgentAction::ALL, &mut out);
    of(Party::ALL, &mut out);
    of(Conformance::ALL, &mut out);
    of(Probe::ALL, &mut out);
    of(MadeOn::ALL, &mut out);
    of(RetrySafety::ALL, &mut out);
    of(AuthCheck::ALL, &mut out);
    of(AuthStep::ALL, &mut out);
    of(BrowserAccess::ALL, &mut out);
    of(Level::ALL, &mut out);
    of(ToolRisk::ALL, &mut out);
    out.extend(
        Step::CARDS
            .iter()
            .filter_map(Step::intent)
            .map(String::from),
    );
    // The advice table's sentences are ours whole (an `Advice` holds static text only).
    for cause in Cause::ALL {
        let a = crate::judge::advice::for_cause(*cause);
        out.extend([a.agent, a.server, a.spec_section].map(String::from));
    }
    for flag in Flag::ALL {
        out.push(crate::judge::advice::for_flag(*flag).to_string());
    }
    for reason in crate::run::catalogue::SkipReason::ALL {
        if let Ok(serde_json::Value::String(id)) = serde_json::to_value(reason) {
            out.push(id);
        }
    }
    out
}
