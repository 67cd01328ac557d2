//! What a replay gives back: the [`Replayed`] run, or the [`ReplayProblem`] that stopped it.

use crate::output::runs::{MixedRuns, OneRun};
use crate::run::engine::{Mode, RunReport, Step};

/// The most recorded exchanges one replay (or one paste) reads.
pub const MAX_CAPTURES: usize = 4096;

/// A finished replay.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The report, as a live run with these answers would have made it.
    pub report: RunReport,
    /// How many recorded exchanges answered a request.
    pub used: usize,
    /// The recorded exchanges that answered nothing (their positions in the input).
    pub unused: Vec<usize>,
    /// The requests no recorded exchange fitted, in the order they were planned.
    pub unanswered: Vec<Step>,
    /// The plan replayed: the recording's, or `None` when it holds none (then a Quick check).
    pub plan: Option<Mode>,
    /// How the captures were found to be one run.
    pub one_run: OneRun,
}

impl Replayed {
    /// What the replay used, for people (the page's source line, the CLI's standard error).
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} of {} recorded exchanges answered a request ({} not used).",
            self.used,
            self.used + self.unused.len(),
            self.unused.len()
        );
        if !self.unanswered.is_empty() {
            let steps: Vec<String> = self.unanswered.iter().map(Step::label).collect();
            out.push_str(&format!(" No recorded answer for: {}.", steps.join(", ")));
        }
        out.push_str(match self.plan {
            Some(Mode::Quick) => " The recorded plan was replayed: a Quick check.",
            Some(Mode::Review) => {
                " The recorded plan was replayed: Review first, with the calls it made."
            }
            None => " The recordings hold no plan: a Quick check was replayed.",
        });
        if let Some(caveat) = self.one_run.caveat() {
            out.push(' ');
            out.push_str(caveat);
        }
        out
    }
}

problem_enum! {
/// Why a set of recordings cannot be replayed.
ReplayProblem => Replay(ReplayProblemId) {
    /// No exchanges at all.
    Empty,
    /// More than [`MAX_CAPTURES`].
    TooMany(usize),
    /// Nothing recorded opens a run (`initialize` or `server/discover`).
    NoConnect,
    /// The captures come from different runs.
    MixedRuns(MixedRuns),
    /// The recorded plan cannot run against the recorded catalogue.
    Plan(String),
}
}

impl std::fmt::Display for ReplayProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayProblem::Empty => write!(f, "no recorded exchanges to replay"),
            ReplayProblem::TooMany(n) => write!(
                f,
                "{n} recorded exchanges: a replay reads at most {MAX_CAPTURES}"
            ),
            ReplayProblem::NoConnect => write!(
                f,
                "nothing recorded opens a run (no initialize or server/discover request): classify the exchanges one by one instead"
            ),
            ReplayProblem::MixedRuns(mixed) => write!(f, "{mixed}"),
            ReplayProblem::Plan(why) => write!(f, "the recorded plan cannot be replayed: {why}"),
        }
    }
}
