//! One recorded request of a run, with its verdict and assessment, and the protected resource
//! metadata a 401 names (fetched only on the user's click).

use serde::Serialize;

use crate::judge::assess::Assessment;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::step::Step;

/// One recorded exchange with its assessment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// The step.
    pub step: Step,
    /// Its round.
    pub wave: u32,
    /// What went over the wire (redacted by [`crate::engine::Engine::read`] before it is kept).
    pub exchange: Exchange,
    /// The classification.
    pub assessment: Assessment,
}
