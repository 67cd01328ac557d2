//! Test-only switches that each break one check of a reader of user input (a link, a plan file, a
//! paste) or change one rule, so a fuzz run or a snapshot can show that it catches the change.
//! All off unless a test turns one on, and always off in builds without the `testing` feature.

/// The checks a test may break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SeededBug {
    /// The link decoder forgets the finding's length cap.
    ShareFindingCap,
    /// The plan-file reader lets a probe be named twice.
    PlanDuplicateProbe,
    /// The paste reader accepts a paste with nothing to classify.
    PasteEmpty,
    /// The first phrase rule of `rules/phrases.rules` never matches.
    FirstPhraseRuleOff,
    /// The OAuth doctor fetches any URL a server names (SECURITY.md rule 11 off).
    AuthFetchRuleOff,
    /// A request without an answer is worded as a browser saw it, whoever saw it.
    BrowserWordsAnywhere,
    /// The server author is offered every change, even one that makes the answer deviate.
    AnyChangeOffered,
    /// Every skipped probe says "skipped by you", whoever (if anyone) chose it.
    ByYouAnywhere,
    /// Changes to make come with the line that says there is nothing to change.
    NothingAmongChanges,
    /// The validation reader finds no payload: answers fall back to their words and codes.
    ValidationReaderOff,
    /// Probe B's spec verdict accuses the server of not validating whenever the cause is a tool
    /// failure, even when no words say the tool ran.
    AccuseFromAGuess,
}

#[cfg(any(test, feature = "testing"))]
thread_local! {
    static ON: std::cell::Cell<Option<SeededBug>> = const { std::cell::Cell::new(None) };
}

/// Whether `bug` is switched on (never outside tests).
pub(crate) fn is_on(bug: SeededBug) -> bool {
    #[cfg(any(test, feature = "testing"))]
    {
        ON.with(std::cell::Cell::get) == Some(bug)
    }
    #[cfg(not(any(test, feature = "testing")))]
    {
        let _ = bug;
        false
    }
}

/// Runs `f` with `bug` switched on on this thread.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn with<R>(bug: SeededBug, f: impl FnOnce() -> R) -> R {
    ON.with(|b| b.set(Some(bug)));
    let out = f();
    ON.with(|b| b.set(None));
    out
}
