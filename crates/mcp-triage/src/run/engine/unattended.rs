//! How a run that no person watches goes on at its pauses (the command line's probe, a census):
//! decided here once, so every native loop stops, applies a plan or declines alike.

use super::phase::RunPhase;
use super::state::Engine;
use crate::run::consent::{ConsentPolicy, DECLINED_WITHOUT_A_PERSON, PlanEntry};

/// Who speaks for the person at a run's pauses.
#[derive(Debug, Clone, Copy)]
pub enum Unattended<'a> {
    /// Nobody (`probe` without a plan): the consent step is declined, so tools not declared
    /// read-only are not called.
    NoPlan,
    /// A committed plan file (`probe --plan`): Review first applies its rows, whose opt-ins
    /// stand; one that cannot run is the plan's author's to mend.
    Plan(&'a [PlanEntry]),
    /// A census: Review first applies the census plan (probe A only); were it refused, the run
    /// is cancelled.
    Census,
}

/// What [`Engine::go_on`] did at a pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WentOn {
    /// The run moved on (a plan applied, the consent step declined, or the run cancelled):
    /// poll again. With a line for a progress list, when there is one to say.
    Again(Option<&'static str>),
    /// The run waits for nothing a shell without a person can give: stop polling.
    Stuck,
}

impl Engine {
    /// When a poll sends nothing and the run is not done: goes on as `how` says. `Err` when a
    /// plan file cannot run (the message says why).
    pub fn go_on(&mut self, how: Unattended<'_>) -> Result<WentOn, String> {
        let policy = ConsentPolicy::without_a_person(matches!(how, Unattended::Plan(_)));
        match (self.phase(), how) {
            (RunPhase::Review, Unattended::Plan(rows)) => {
                self.apply_plan(policy, rows)
                    .map_err(|e| format!("the plan cannot run: {e}"))?;
                Ok(WentOn::Again(Some("running the plan")))
            }
            (RunPhase::Review, Unattended::Census) => {
                if self.apply_review(&crate::run::census::plan()).is_err() {
                    self.cancel();
                }
                Ok(WentOn::Again(None))
            }
            (RunPhase::Consent, _) => match policy.answer_without_asking() {
                // Declined, and not by a person: each probe keeps why it had no tool.
                Some(false) => {
                    self.decline_without_a_person();
                    Ok(WentOn::Again(Some(DECLINED_WITHOUT_A_PERSON)))
                }
                Some(true) => {
                    self.answer_consent(true);
                    Ok(WentOn::Again(None))
                }
                None => Ok(WentOn::Stuck),
            },
            _ => Ok(WentOn::Stuck),
        }
    }
}
