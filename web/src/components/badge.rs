//! Badges for channels, causes and verdicts: a symbol and a word, never colour alone.

use leptos::prelude::*;
use mcp_triage::Conformance;
use mcp_triage::cause::Channel;

/// A channel's symbol and colour class. Symbols are text characters every common font has, never
/// emoji (an emoji shows as an empty box where no emoji font is installed).
fn channel_look(channel: Channel) -> (&'static str, &'static str) {
    match channel {
        Channel::Success => ("✓", "ok"),
        Channel::Accepted | Channel::StreamOpen => ("•", "neutral"),
        Channel::ToolError => ("◆", "warn"),
        Channel::JsonrpcError => ("✕", "bad"),
        Channel::Http => ("⊘", "bad"),
        Channel::Network | Channel::Malformed => ("?", "bad"),
    }
}

/// A verdict's symbol, word and colour class (text characters, as for channels).
fn conformance_look(conformance: Conformance) -> (&'static str, &'static str, &'static str) {
    match conformance {
        Conformance::Conforms => ("✓", "conforms", "ok"),
        Conformance::Deviates => ("✕", "deviates", "bad"),
        Conformance::NotApplicable => ("–", "not applicable", "neutral"),
    }
}

/// The channel a failure arrived on.
#[component]
pub fn ChannelBadge(channel: Channel) -> impl IntoView {
    let (symbol, class) = channel_look(channel);
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
    let (symbol, word, class) = conformance_look(conformance);
    view! {
        <span class=format!("badge verdict {class}") data-testid="verdict">
            <span aria-hidden="true">{symbol}" "</span>{word}
        </span>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Characters below U+1F000 that Unicode presents as emoji by default (Emoji_Presentation=Yes,
    /// emoji-data.txt of Unicode 15.1); everything from U+1F000 on is treated as emoji too.
    const EMOJI_PRESENTATION: &[(u32, u32)] = &[
        (0x231A, 0x231B),
        (0x23E9, 0x23EC),
        (0x23F0, 0x23F0),
        (0x23F3, 0x23F3),
        (0x25FD, 0x25FE),
        (0x2614, 0x2615),
        (0x2648, 0x2653),
        (0x267F, 0x267F),
        (0x2693, 0x2693),
        (0x26A1, 0x26A1),
        (0x26AA, 0x26AB),
        (0x26BD, 0x26BE),
        (0x26C4, 0x26C5),
        (0x26CE, 0x26CE),
        (0x26D4, 0x26D4),
        (0x26EA, 0x26EA),
        (0x26F2, 0x26F3),
        (0x26F5, 0x26F5),
        (0x26FA, 0x26FA),
        (0x26FD, 0x26FD),
        (0x2705, 0x2705),
        (0x270A, 0x270B),
        (0x2728, 0x2728),
        (0x274C, 0x274C),
        (0x274E, 0x274E),
        (0x2753, 0x2755),
        (0x2757, 0x2757),
        (0x2795, 0x2797),
        (0x27B0, 0x27B0),
        (0x27BF, 0x27BF),
        (0x2B1B, 0x2B1C),
        (0x2B50, 0x2B50),
        (0x2B55, 0x2B55),
    ];

    fn is_emoji(c: char) -> bool {
        let c = c as u32;
        c >= 0x1F000
            || EMOJI_PRESENTATION
                .iter()
                .any(|(a, b)| (*a..=*b).contains(&c))
    }

    #[test]
    fn no_badge_symbol_is_an_emoji() {
        assert!(is_emoji('⛔'), "the control: the old Http symbol is caught");
        for channel in Channel::ALL {
            let (symbol, _) = channel_look(*channel);
            assert!(!symbol.chars().any(is_emoji), "{channel}: {symbol}");
        }
        for conformance in Conformance::ALL {
            let (symbol, _, _) = conformance_look(*conformance);
            assert!(!symbol.chars().any(is_emoji), "{conformance}: {symbol}");
        }
    }
}
