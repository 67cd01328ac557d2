//! Untrusted text (from a server or a link) rendered as text nodes only: control and bidi characters
//! appear as visible `⟨U+202E⟩` tokens, long texts are cut at a cap with "show all", and one range can
//! be highlighted.

use leptos::prelude::*;

/// The largest text "show all" expands to (the body cap).
pub const SHOW_ALL_CAP: usize = 4 * 1024 * 1024;

/// True for characters shown as tokens: controls and format characters (bidi overrides, zero-width),
/// except newline and tab.
pub fn needs_token(c: char) -> bool {
    if c == '\n' || c == '\t' {
        return false;
    }
    c.is_control()
        || matches!(c as u32,
            0x00AD | 0x061C | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064
            | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB)
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Token(String),
    Mark(String),
}

fn pieces(text: &str, highlight: Option<[usize; 2]>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut plain = String::new();
    let mut marked = String::new();
    for (i, c) in text.chars().enumerate() {
        let in_mark = highlight.is_some_and(|[a, b]| i >= a && i < b);
        if !in_mark && !marked.is_empty() {
            out.push(Piece::Mark(std::mem::take(&mut marked)));
        }
        if needs_token(c) {
            if !plain.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut plain)));
            }
            out.push(Piece::Token(format!("⟨U+{:04X}⟩", c as u32)));
            continue;
        }
        if in_mark {
            if !plain.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut plain)));
            }
            marked.push(c);
        } else {
            plain.push(c);
        }
    }
    if !marked.is_empty() {
        out.push(Piece::Mark(marked));
    }
    if !plain.is_empty() {
        out.push(Piece::Text(plain));
    }
    out
}

fn render(text: &str, highlight: Option<[usize; 2]>) -> impl IntoView + use<> {
    pieces(text, highlight)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => view! { <span>{t}</span> }.into_any(),
            Piece::Token(t) => {
                view! { <span class="ctl" title="an invisible or control character">{t}</span> }
                    .into_any()
                    .into_any()
            }
            Piece::Mark(t) => view! { <mark>{t}</mark> }.into_any(),
        })
        .collect_view()
}

/// Text from outside, safely shown. `cap` is in characters.
#[component]
pub fn VisibleText(
    text: String,
    #[prop(default = 512)] cap: usize,
    #[prop(optional)] highlight: Option<[usize; 2]>,
) -> impl IntoView {
    let total = text.chars().count();
    let expanded = RwSignal::new(false);
    if total <= cap {
        return view! { <span class="vt">{render(&text, highlight)}</span> }.into_any();
    }
    let short: String = text.chars().take(cap).collect();
    let bytes = text.len();
    let full = StoredValue::new(text);
    view! {
        <span class="vt">
            <Show
                when=move || expanded.get()
                fallback=move || view! {
                    {render(&short, highlight)}
                    <span class="truncated">{format!("… (truncated, {bytes} bytes)")}</span>
                    " "
                    <button type="button" class="linkish" on:click=move |_| expanded.set(true)>"show all"</button>
                }.into_any()
            >
                {move || {
                    let all: String = full.with_value(|t| t.chars().take(SHOW_ALL_CAP).collect());
                    render(&all, highlight)
                }}
            </Show>
        </span>
    }.into_any()
    .into_any()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn tokens_and_marks() {
        let p = pieces("a\u{202E}b\ncd", Some([3, 5]));
        assert_eq!(
            p,
            vec![
                Piece::Text("a".into()),
                Piece::Token("⟨U+202E⟩".into()),
                Piece::Text("b".into()),
                Piece::Mark("\nc".into()),
                Piece::Text("d".into()),
            ]
        );
    }
}
