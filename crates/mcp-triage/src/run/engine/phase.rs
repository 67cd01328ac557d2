//! Where a run is, as one answer both shells render: from the first request to the end, and how it
//! ended.

use serde::Serialize;

use super::state::Engine;
use crate::vocabulary::cause::RunEnd;

/// Where a run is. A shell adds only its own states around a run (the page's form before one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", content = "ended", rename_all = "snake_case")]
pub enum RunPhase {
    /// The connect requests: nothing of the catalogue has been asked for yet.
    Connecting,
    /// The catalogue, the probes and the transport checks are under way.
    Running,
    /// Review first waits for a person's (or a plan file's) edits; nothing is in flight.
    Review,
    /// Quick check's consent step waits for an answer; nothing is in flight but the transport
    /// checks, which go on while the step is shown.
    Consent,
    /// The run has ended (how is given) but requests are still in flight: the shell aborts them
    /// and hands them back.
    Stopping(RunEnd),
    /// The run is over, and how.
    Ended(RunEnd),
}

impl RunPhase {
    /// Requests are being sent or read (connecting, running or stopping).
    pub fn is_moving(self) -> bool {
        matches!(
            self,
            RunPhase::Connecting | RunPhase::Running | RunPhase::Stopping(_)
        )
    }

    /// The run waits for someone: Review first's edits or the consent step's answer.
    pub fn waits_for_consent(self) -> bool {
        matches!(self, RunPhase::Review | RunPhase::Consent)
    }

    /// The run is not over: moving, or waiting for someone.
    pub fn under_way(self) -> bool {
        !matches!(self, RunPhase::Ended(_))
    }

    /// The heading a progress list shows for it: what the run is doing while requests move, and
    /// "Cancelled" after a Cancel; "Run" otherwise (a step of its own, or the results, says the rest).
    pub fn heading(self) -> &'static str {
        match self {
            RunPhase::Connecting => "Connecting…",
            RunPhase::Running => "Running probes…",
            RunPhase::Stopping(_) => "Stopping…",
            RunPhase::Ended(RunEnd::Cancelled) => "Cancelled",
            _ => "Run",
        }
    }
}

impl Engine {
    /// Where the run is: the one answer both shells render (Review first is asked before the
    /// consent step, as a run can only wait for one of them).
    pub fn phase(&self) -> RunPhase {
        if let Some(end) = self.ended {
            return if self.in_flight.is_empty() {
                RunPhase::Ended(end)
            } else {
                RunPhase::Stopping(end)
            };
        }
        // A person is asked only once nothing is in flight: until the transport checks are back,
        // a run that will wait for its review is still running.
        if self.awaiting_review() && self.in_flight.is_empty() {
            RunPhase::Review
        } else if self.awaiting_consent() {
            RunPhase::Consent
        } else if self.past_connect() {
            RunPhase::Running
        } else {
            RunPhase::Connecting
        }
    }
}
