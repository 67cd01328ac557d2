//! The command line's exit statuses, decided once in one precedence table (documented in
//! `mcp-triage --help`).

use super::report::RunReport;
use crate::run::catalogue::SkipReason;
use crate::vocabulary::cause::{Interrupt, RunEnd};
use crate::vocabulary::step::Step;

/// The run completed.
pub const OK: u8 = 0;
/// `classify`: an input was not an exchange (with `--outcome`, not an agent call).
pub const NOT_AN_EXCHANGE: u8 = 1;
/// A usage error.
pub const USAGE: u8 = 2;
/// Something got worse than the baseline (`--baseline`, `diff`).
pub const REGRESSED: u8 = 7;
/// The server could not be reached, or refused the run at connect (a 401, a 403…), or refused
/// `--oauth`'s sign-in.
pub const UNREACHABLE: u8 = 3;
/// The run ended before the server answered its connect (`initialize` or `server/discover`):
/// the time limit passed on a server that never answered, so no probe ran.
pub const NEVER_CONNECTED: u8 = 8;
/// A probe that was planned could not run to an answer (a deadline, the size cap, a refusal).
pub const PROBE_NOT_RUN: u8 = 4;
/// The score is below `--fail-under` ("n/a" is below any N of at least 1).
pub const BELOW_FAIL_UNDER: u8 = 5;
/// A local failure (an output file could not be written).
pub const LOCAL: u8 = 6;
/// SIGINT (Ctrl-C) interrupted the run: 128 + 2, as a shell reports a process it ended.
pub const SIGINT: u8 = 130;
/// SIGTERM interrupted the run: 128 + 15.
pub const SIGTERM: u8 = 143;

/// The status for a run a signal interrupted.
pub fn of_interrupt(by: Interrupt) -> u8 {
    match by {
        Interrupt::Sigint => SIGINT,
        Interrupt::Sigterm => SIGTERM,
    }
}

/// Every exit status of the command line, in precedence order: the first row that applies is
/// the status. The one table `--help` and docs/cli.md print (a test holds docs/cli.md to it).
pub const TABLE: &[(u8, &str)] = &[
    (
        SIGINT,
        "interrupted by SIGINT (Ctrl-C): what was recorded is still written, and says so",
    ),
    (SIGTERM, "interrupted by SIGTERM: the same"),
    (
        LOCAL,
        "a local failure: an output could not be made or written",
    ),
    (
        USAGE,
        "a usage error, or input that replay or diff cannot read (nothing was run)",
    ),
    (
        NOT_AN_EXCHANGE,
        "classify: an input was not an exchange (with --outcome, not an agent call)",
    ),
    (
        UNREACHABLE,
        "the server could not be reached, or refused the run at connect or --oauth's sign-in",
    ),
    (
        NEVER_CONNECTED,
        "the run ended before the server answered its connect: no probe ran",
    ),
    (PROBE_NOT_RUN, "a planned probe could not run to an answer"),
    (
        REGRESSED,
        "something got worse than the baseline (diff, --baseline)",
    ),
    (BELOW_FAIL_UNDER, "the score is below --fail-under"),
    (OK, "the run completed"),
];

/// The status of `mcp-triage diff`: [`REGRESSED`] when something got worse, else [`OK`]
/// (unreadable input is [`USAGE`], decided before any comparison).
pub fn of_diff(regressed: bool) -> u8 {
    if regressed { REGRESSED } else { OK }
}

/// [`TABLE`] as text: a heading and one line a status.
pub fn table_text() -> String {
    let mut out = String::from("Exit status (the first that applies, top to bottom):\n");
    for (code, meaning) in TABLE {
        out.push_str(&format!("  {code:>3}  {meaning}\n"));
    }
    out.pop();
    out
}

impl RunReport {
    /// The exit status of this run for the command line, by [`TABLE`]'s precedence: the
    /// signal that interrupted it, else [`LOCAL`] when `local_failure` (an output could not
    /// be made or written), else the lowest that applies of [`UNREACHABLE`] (a failed connect, or
    /// a sign-in refused: [`RunReport::note_sign_in_refused`]), [`NEVER_CONNECTED`] (a run,
    /// not a recording, with no catalogue or probe recorded: its time limit passed first),
    /// [`PROBE_NOT_RUN`], [`REGRESSED`] (`regressed`: the comparison with a baseline found
    /// something worse) and [`BELOW_FAIL_UNDER`], else [`OK`].
    pub fn exit_status(&self, fail_under: Option<u8>, local_failure: bool, regressed: bool) -> u8 {
        if let Some(by) = self.interrupted_by {
            return of_interrupt(by);
        }
        if local_failure {
            return LOCAL;
        }
        if self.ended == Some(RunEnd::ConnectFailed) || self.sign_in_refused {
            return UNREACHABLE;
        }
        if self.never_connected() {
            return NEVER_CONNECTED;
        }
        let cut = self
            .records
            .iter()
            .any(|r| matches!(r.step, Step::Probe(_)) && r.exchange.stop_reason().is_some());
        let ran_out = self
            .probes
            .iter()
            .any(|p| p.choice.is_some() && p.skipped == Some(SkipReason::RunEnded));
        if cut || ran_out {
            return PROBE_NOT_RUN;
        }
        if regressed {
            return REGRESSED;
        }
        if self.below_fail_under(fail_under) {
            return BELOW_FAIL_UNDER;
        }
        OK
    }

    /// A run (not a recording) that recorded no catalogue and no probe: the server never answered
    /// its connect, whether the connect failed or the run's time limit passed first.
    pub fn never_connected(&self) -> bool {
        self.ended != Some(RunEnd::Recorded) && !super::report::connect_outcome(&self.records).1
    }

    /// The score is below the bar `fail_under` (pairs of A, B, C told apart by structure); "n/a"
    /// is below any bar of at least 1.
    pub fn below_fail_under(&self, fail_under: Option<u8>) -> bool {
        fail_under.is_some_and(|n| {
            n >= 1 && (self.summary.judged == 0 || self.summary.score.unwrap_or(0) < n)
        })
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// The order `exit_status` applies is the order `TABLE` prints: a signal over a failed output,
    /// a failed output over an unreachable server, each of them over what comes below it.
    #[test]
    fn exit_status_follows_the_tables_precedence() {
        let mut report = RunReport::from_exchanges("https://x.example/mcp", Vec::new());
        report.ended = Some(RunEnd::ConnectFailed);
        assert_eq!(report.exit_status(None, false, false), UNREACHABLE);
        assert_eq!(report.exit_status(Some(3), true, false), LOCAL);
        report.interrupted_by = Some(Interrupt::Sigint);
        assert_eq!(report.exit_status(Some(3), true, false), SIGINT);
        report.interrupted_by = Some(Interrupt::Sigterm);
        assert_eq!(report.exit_status(None, true, false), SIGTERM);
        // A run whose deadline passed before the server answered its connect never exits 0.
        let mut report = RunReport::from_exchanges("https://x.example/mcp", Vec::new());
        report.ended = Some(RunEnd::DeadlinePassed);
        assert_eq!(report.exit_status(None, false, false), NEVER_CONNECTED);
        // A recording is not a run: it is judged by what it holds.
        report.ended = Some(RunEnd::Recorded);
        assert_eq!(report.exit_status(None, false, false), OK);
        // A refused sign-in is unreachable, over what the run without a token found.
        report.ended = Some(RunEnd::Complete);
        report.note_sign_in_refused("the authorization server said no");
        assert_eq!(report.exit_status(Some(3), false, false), UNREACHABLE);
        assert_eq!(report.exit_status(None, true, false), LOCAL);
        let rank = |code: u8| TABLE.iter().position(|(c, _)| *c == code);
        let order = [
            SIGINT,
            LOCAL,
            UNREACHABLE,
            NEVER_CONNECTED,
            PROBE_NOT_RUN,
            BELOW_FAIL_UNDER,
        ];
        let ranks: Vec<_> = order.iter().map(|c| rank(*c)).collect();
        assert!(ranks.iter().all(Option::is_some), "{ranks:?}");
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
    }
}
