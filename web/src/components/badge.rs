//! Badges for channels, causes and verdicts: a symbol and a word, never colour alone.

use leptos::prelude::*;
use mcp_triage::cause::Channel;
use mcp_triage::spec::Conformance;

/// The channel a failure arrived on.
#[component]
pub fn ChannelBadge(channel: Channel) -> impl IntoView {
    let (symbol, class) = match channel {
        Channel::Success => ("✓", "ok"),
        Channel::Accepted | Channel::StreamOpen => ("•", "neutral"),
        Channel::ToolError => ("◆", "warn"),
        Channel::JsonrpcError => ("✕", "bad"),
        Channel::Http => ("⛔", "bad"),
        Channel::Network | Channel::Malformed => ("?", "bad"),
    };
    view! {
        <span class=format!("badge channel {class}") data-testid="channel">
            <span aria-hidden="true">{symbol}" "</span>{channel.as_str()}
        </span>
    }
    .into_any()
}

/// A spec verdict.
#[component]
pub fn ConformanceBadge(conformance: Conformance) -> impl IntoView {
    let (symbol, word, class) = match conformance {
        Conformance::Conforms => ("✓", "conforms", "ok"),
        Conformance::Deviates => ("✕", "deviates", "bad"),
        Conformance::NotApplicable => ("–", "not applicable", "neutral"),
    };
    view! {
        <span class=format!("badge verdict {class}") data-testid="verdict">
            <span aria-hidden="true">{symbol}" "</span>{word}
        </span>
    }
    .into_any()
}
