//! UI components, one per file: each renders what the core said and the state holds.
//!
//! May import: `net`, `form`, `state`, and other components.

pub mod auth;
pub mod badge;
pub mod card;
pub mod compare;
pub mod consent;
pub mod copy_button;
pub mod diagnosis;
pub mod examples;
pub mod export_bar;
pub mod markup;
pub mod paste;
pub mod plan_review;
pub mod results;
pub mod run_progress;
pub mod share_panel;
pub mod shared_view;
pub mod signin;
pub mod target_form;
pub mod visible_text;
