//! The view model every text surface renders: one [`CardView`] per probe or check and one
//! [`SummaryView`] per run, plain data in the order a reader meets it. The page, the share view, the
//! Markdown, the terminal report and JUnit add markup and nothing else; a live run
//! ([`ReportView::of_report`]) and a shared link of any version ([`ReportView::of_share`]) give the
//! same views, so an old link and a live run render alike.
//!
//! May import: `vocabulary`, `secrets`, `judge`, `run`, `output::share`.

mod envelope;
mod fix_first;
mod grid;
mod model;
mod of_auth;
mod of_report;
mod of_share;
mod wire;

pub use fix_first::{FIX_ORDERING, FixFirst};
pub use grid::GridRow;
pub use model::{
    AdviceView, Answer, AuthCardView, AuthView, Badge, BrowserView, CardView, ChallengeView,
    EvidenceView, FindingView, Quote, ReportView, ServerAdviceView, SpecView, SummaryView, Tone,
    VerdictLine, WireView,
};
