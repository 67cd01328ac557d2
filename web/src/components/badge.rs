//! A badge: its tone's symbol and its words, never colour alone. The core decides the words and the
//! tone ([`Badge`]); this only adds markup.

use mcp_triage::view::Badge;

use super::markup::{Node, el};

/// A badge: its tone's symbol and its words; `kind` is its class and test id, the identifier is in
/// `data-id`.
pub fn badge(b: Badge, kind: &'static str) -> Node {
    let symbol = b.tone.symbol();
    el("span")
        .class(format!("badge {kind} {}", b.tone.class()))
        .testid(kind)
        .data_id(b.id)
        .child_if((!symbol.is_empty()).then(|| el("span").decorative().text(format!("{symbol} "))))
        .text(b.label)
        .into()
}
