//! MCP Triage core: decode and classify MCP exchanges captured on the wire, plan and run the probes
//! as a sans-IO state machine, and write what a run found, with no I/O, no clock and no randomness of
//! its own.
//!
//! Callers hand it what they saw (an [`Exchange`]: request, response bytes and headers, how reading
//! ended), the time and the limits to apply; it hands back a [`Verdict`], the next requests and the
//! run's report. Classification is total: garbage in gives a `malformed` or `unknown` verdict with
//! reasons, never an error or a panic.
//!
//! # How data flows
//!
//! The folders are the stages, each importing only from the ones above it:
//!
//! 1. `vocabulary`: the words every stage shares (causes, limits, headers, the exchange record, steps);
//! 2. `secrets`: credentials, redaction in every encoding, requests recorded with secrets marked;
//! 3. `decode`: bytes in, events out (bodies, SSE, JSON-RPC, challenges, stdio lines, the reader);
//! 4. `judge`: verdicts, spec verdicts, advice, assessment, a run's summary;
//! 5. `run`: endpoints, the CORS doctor, the catalogue, consent, plan files, the engine;
//! 6. `output`: exports, share links, replays.
//!
//! The modules below are the public surface: what the shells (page, CLI) and the packages call.
//! Everything else is private to the crate.

#![warn(unnameable_types)]

/// The crate's README example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// One table → an enum's variants, its stable identifiers (serde's name is the label, so serde and
/// `as_str` agree by construction), parsing and `Display`: every identifier other tools read is
/// spelled once.
macro_rules! labelled_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $label:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $label)] $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable identifier.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $label,)*
                }
            }

            /// The identifier for people: its words without underscores
            /// (`show_user_do_not_retry` → "show user do not retry"). Every surface shows this,
            /// none spells a label itself.
            pub fn label(self) -> String {
                self.as_str().replace('_', " ")
            }

            /// Parses the stable identifier.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($label => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl $crate::vocabulary::labelled::Labelled for $name {
            fn id(self) -> &'static str {
                self.as_str()
            }
            fn words(self) -> String {
                self.label()
            }
            fn from_id(text: &str) -> Option<$name> {
                $name::parse(text)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// An error type whose variants may carry data, with the stable id of each variant derived from
/// its name: `$ids::$variant` of [`problem::ProblemId`]'s group `$group` (the compiler refuses a
/// variant without its id). It converts into a [`problem::Problem`] with its `Display` words.
macro_rules! problem_enum {
    ($(#[$meta:meta])* $name:ident => $group:ident($ids:ident) {
        $($(#[$vmeta:meta])* $variant:ident $(($($field:ty),+))?,)*
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vmeta])* $variant $(($($field),+))?,)*
        }

        impl $name {
            /// Its stable id.
            pub fn id(&self) -> $crate::vocabulary::problem::ProblemId {
                $crate::vocabulary::problem::ProblemId::$group(match self {
                    $($name::$variant { .. } => $crate::vocabulary::problem::$ids::$variant,)*
                })
            }
        }

        impl From<$name> for $crate::vocabulary::problem::Problem {
            fn from(e: $name) -> $crate::vocabulary::problem::Problem {
                $crate::vocabulary::problem::Problem::new(e.id(), e.to_string())
            }
        }
    };
}

mod decode;
mod judge;
mod output;
mod run;
mod secrets;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
mod vocabulary;

pub use decode::body::BodyKind;
pub use decode::challenge::Challenge;
pub use decode::reader::{Next, ReadEvent, ReadFailure, RequestReader, head_deadline_ms};
pub use judge::assess::{Assessment, assess};
pub use judge::classify::{Options, Verdict, classify};
pub use judge::spec::{Conformance, SpecVerdict};
pub use judge::summary::{Pair, RunSummary, score_text, summarize};
pub use run::catalogue::{SkipReason, ToolRisk};
pub use vocabulary::cause::{Cause, Channel, DecidedBy, Evidence, EvidenceKind};
pub use vocabulary::exchange::{Exchange, ExchangeError, Request, Response};
pub use vocabulary::limits::Limits;
pub use vocabulary::probe::{Check, Probe};
pub use vocabulary::protocol::ProtocolVersion;

/// One verdict as every surface hands it on (`mcp-triage-verdict/2`), for an exchange
/// ([`VerdictDoc::of_assessment`](verdict::VerdictDoc::of_assessment)) or for what an agent's MCP
/// client library handed it after a call ([`classify_outcome`](verdict::classify_outcome)), and
/// what an agent does with one: [`should_retry`](verdict::should_retry) and
/// [`message_for_model`](verdict::message_for_model).
pub mod verdict {
    pub use crate::judge::outcome::{
        AgentCall, ClientError, MAX_CAUSES, MadeOn, Raised, RetrySafety, RpcError, TransportFailure,
    };
    pub use crate::output::verdict_doc::{
        RetryDecision, SpecDoc, VERDICT_FORMAT, VERDICT_FORMAT_1, VerdictDoc, classify_outcome,
        message_for_model, should_retry, verdict_schema,
    };
    /// The packages' boundary: JSON text in and out.
    pub use crate::output::verdict_text::{
        classify_outcome_text, classify_text, message_for_model_text, should_retry_text,
        unreadable_text,
    };
    pub use crate::vocabulary::cause::Delivery;
}

/// What to tell an agent: the advice table, apart from detection.
pub mod advice {
    pub use crate::judge::advice::{Advice, AgentAction, Party, for_cause, for_flag};
    pub use crate::judge::server_advice::{ServerAdvice, ServerChange, fitted};
}

/// The OAuth doctor: authorization discovery as cards with findings (`--auth-check`), and the
/// sign-in that continues it (`--oauth`).
pub mod auth {
    pub use crate::run::auth::{
        AuthCard, AuthCheck, AuthDoctor, AuthReport, AuthRule, BrowserAccess, BrowserVerdict,
        Finding, LISTENER_MAX_HEAD, LISTENER_MAX_REQUESTS, Level, MAX_FETCHES,
        MAX_METADATA_DOCUMENT, REVISIONS, ROUND_TRIP_FORMAT, ROUND_TRIP_KEY,
        ROUND_TRIP_MAX_AGE_SECONDS, Renewal, ReturnTo, SIGN_IN_RANDOM_BYTES, SIGN_IN_WAIT_SECONDS,
        SignIn, SignInInput, SignInNext, TokenIssue, rule,
    };
    pub use crate::vocabulary::auth_step::AuthStep;
}

/// The vocabulary of a verdict and of how a run ended.
pub mod cause {
    pub use crate::vocabulary::cause::{
        Cause, Channel, DecidedBy, Evidence, EvidenceKind, Flag, Interrupt, RunEnd, StopReason,
    };
}

/// A census: targets read and merged, politeness, the `mcp-triage-census/1` lines, `--resume` and
/// the summary report.
pub mod census {
    pub use crate::output::census::line::{
        AuthFinding, AuthLine, CENSUS_FORMAT, CensusLine, CheckLine, Reach, ServerId, Timings,
        ToolCounts,
    };
    pub use crate::output::census::matrix::{
        MATRIX_COLUMNS, MatrixCell, MatrixRow, SpecCell, matrix_markdown, matrix_svg, read_rows,
    };
    pub use crate::output::census::report::{MAX_NAMES, Tally, progress_line};
    pub use crate::output::census::resume::{Resume, read as read_resume};
    pub use crate::output::census::schema::census_schema;
    pub use crate::run::census::polite::{
        DEFAULT_CONCURRENCY, DEFAULT_HOST_DELAY_MS, Gate, MAX_CONCURRENCY, Pick, Polite,
    };
    pub use crate::run::census::targets::{
        Candidate, MAX_SOURCES, MAX_TARGET_URL_CHARS, MAX_TARGETS, MAX_TARGETS_BYTES, Rejected,
        Target, TargetList, host_key, merge, read_candidates,
    };
    pub use crate::run::census::{plan, user_agent};
}

/// The CORS doctor: what a browser's preflight would say, and why.
pub mod cors {
    pub use crate::run::cors::{
        CorsFix, DiagOutcome, DiagRequest, Diagnosis, Doctor, DoctorCall, Snippet,
    };
}

/// The endpoint a user names (HTTP URL or stdio command), checked.
pub mod endpoint {
    pub use crate::run::endpoint::{
        Endpoint, EndpointProblem, TokenProblem, check_header_value, check_token,
        extra_header_problem, parse_endpoint, parse_endpoint_native, parse_endpoint_with,
    };
}

/// The run: configuration, steps, the engine, its records and report, and the exit codes.
pub mod engine {
    pub use crate::run::engine::{
        CardGroups, Choice, ConsentPolicy, ConsentRow, DECLINED_WITHOUT_A_PERSON, ERA_VALUES,
        Engine, EngineConfig, Era, Mode, Outgoing, PlannedProbe, Poll, ProbeEdit, ProbeName,
        Progress, Proposal, ReadAnswer, Record, RunPhase, RunReport, Step, ToolInfo, Unattended,
        WentOn, era_choices, exit,
    };
    pub use crate::run::input::{RunInput, RunSetup, UrlReader, check_run};
}

/// The `mcp-exchange/1` record.
pub mod exchange {
    pub use crate::vocabulary::exchange::{
        BodyEnd, Exchange, ExchangeError, FORMAT, ProcessExit, Request, Response, StdioCapture,
        Transport, TransportError, Vantage,
    };
}

/// The JSON report, Markdown, JUnit and the terminal report.
pub mod export {
    pub use crate::output::curl::{curl, header_env_name};
    pub use crate::output::export::{
        REPORT_FORMAT, Scrub, markdown, markdown_with_share, report_json, report_json_with_doctor,
        report_json_with_share,
    };
    pub use crate::output::junit::{ExtraCase, junit};
    pub use crate::output::terminal::text;
}

/// Limits on everything that comes from outside.
pub mod limits {
    pub use crate::vocabulary::limits::{
        Limits, MAX_EXTRA_HEADERS, MAX_IN_FLIGHT_PER_HOST, RUN_SECONDS, TEST_LIMITS_ENV,
        TEST_LIMITS_GLOBAL, parse_run_seconds,
    };
}

/// Plan files: `--write-plan` and `--plan`.
pub mod plan_file {
    pub use crate::run::plan_file::{
        FormRow, MAX_PLAN_BYTES, PLAN_FORMAT, PlanEntry, PlanFile, PlanProblem, arguments_of,
        decode, encode,
    };
}

/// Credentials and redaction.
pub mod redact {
    pub use crate::secrets::redact::{
        Credentials, Secrets, redact, redact_by_line, redact_exchange,
    };
}

/// Replays of recordings, reports and pastes.
pub mod replay {
    pub use crate::output::replay::{
        MAX_CAPTURES, MixedRuns, OneRun, Pasted, RecordedPlan, Recording, ReplayProblem, Replayed,
        RunGroup, from_paste, openable_endpoint, read_captures, replay, replay_recording,
    };
}

/// Two runs compared probe by probe; baseline files.
pub mod compare {
    pub use crate::output::compare::{
        BASELINE_FORMAT, Change, Comparison, DIFF_FORMAT, Field, FieldChange, MAX_RUN_FILE,
        ORDERING, RowComparison, baseline_json, compare, read_run, read_shared_run,
    };
}

/// Share links.
pub mod share {
    pub use crate::output::share::{
        BuildOptions, Built, HOSTED_PAGE, Link, LinkOutcome, MAX_LINK, NO_ACTION, ResultShape,
        Share, ShareAuth, ShareAuthCard, ShareBrowser, ShareError, ShareRow, ShareServer, VERSION,
        as_comparison, build, comparison_link, decode, encode, fit, make_link, redact_payload,
    };
}

/// What was wrong with something a user handed in (a link, a paste, a plan file, a capture).
pub mod problem {
    pub use crate::vocabulary::problem::{
        CaptureProblemId, LinkProblemId, PasteProblemId, PlanProblemId, Problem, ProblemId,
        ReplayProblemId, RunProblemId,
    };
}

/// The view model every text surface renders: cards, a summary, badges.
pub mod view {
    pub use crate::output::view::{
        AdviceView, Answer, AuthCardView, AuthView, Badge, BrowserView, CardView, ChallengeView,
        EvidenceView, FIX_ORDERING, FindingView, FixFirst, GridRow, Quote, ReportView,
        ServerAdviceView, SpecView, SummaryView, Tone, VerdictLine, WireView,
    };
}

/// The stdio transport's lines and endings.
pub mod stdio {
    pub use crate::decode::stdio::{
        Ending, Heard, Line, LineSplitter, StderrTail, Waiting, endpoint_of, not_started,
    };
}

#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
