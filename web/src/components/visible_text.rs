//! Untrusted text (from a server or a link) rendered as text nodes only: control and bidi characters
//! appear as visible `⟨U+202E⟩` tokens (a run of one collapsed: `⟨U+0001⟩ × 2,097,152`), long texts
//! are cut at a cap with "show all", which shows a bounded number of DOM nodes and offers the whole
//! text as kept for download, and one range can be highlighted.

use leptos::prelude::*;

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

/// Pieces (DOM nodes) one view renders at most: a page of a long text ends where this is reached.
pub const MAX_PIECES: usize = 2_000;
/// Characters one page of a long text shows at most.
pub const PAGE_CHARS: usize = 16_384;

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    /// A control or format character, and how many times it repeats in a row.
    Token(char, usize),
    Mark(String),
}

/// `n` with thousands separators, so a count reads at a glance: "2,097,152".
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn token_label(c: char, n: usize) -> String {
    let mut label = format!("⟨U+{:04X}⟩", c as u32);
    if n > 1 {
        label.push_str(" × ");
        label.push_str(&grouped(n));
    }
    label
}

/// The head of `text`: at most `max_chars` characters and [`MAX_PIECES`] pieces, runs of the same
/// token collapsed. Returns the pieces and how many characters they show.
fn head_of(text: &str, max_chars: usize, highlight: Option<[usize; 2]>) -> (Vec<Piece>, usize) {
    let mut out: Vec<Piece> = Vec::new();
    let mut plain = String::new();
    let mut marked = String::new();
    let mut i = 0;
    for c in text.chars() {
        if i >= max_chars || out.len() >= MAX_PIECES - 2 {
            break;
        }
        let in_mark = highlight.is_some_and(|[a, b]| i >= a && i < b);
        if !in_mark && !marked.is_empty() {
            out.push(Piece::Mark(std::mem::take(&mut marked)));
        }
        if needs_token(c) {
            if !plain.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut plain)));
            }
            match out.last_mut() {
                Some(Piece::Token(t, n)) if *t == c => *n += 1,
                _ => out.push(Piece::Token(c, 1)),
            }
        } else if in_mark {
            if !plain.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut plain)));
            }
            marked.push(c);
        } else {
            plain.push(c);
        }
        i += 1;
    }
    if !marked.is_empty() {
        out.push(Piece::Mark(marked));
    }
    if !plain.is_empty() {
        out.push(Piece::Text(plain));
    }
    (out, i)
}

fn render_pieces(pieces: Vec<Piece>) -> impl IntoView + use<> {
    pieces
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => view! { <span>{t}</span> }.into_any(),
            Piece::Token(c, n) => {
                view! { <span class="ctl" title="an invisible or control character">{token_label(c, n)}</span> }
                    .into_any()
            }
            Piece::Mark(t) => view! { <mark>{t}</mark> }.into_any(),
        })
        .collect_view()
}

/// Text from outside, safely shown. `cap` is in characters. A text over the cap shows its head and
/// "show all", which shows up to [`PAGE_CHARS`] characters in at most [`MAX_PIECES`] nodes; the
/// whole text as kept (redacted, under the body cap) stays reachable as a download.
#[component]
pub fn VisibleText(
    text: String,
    #[prop(default = 512)] cap: usize,
    #[prop(optional)] highlight: Option<[usize; 2]>,
) -> impl IntoView {
    let total = text.chars().count();
    let expanded = RwSignal::new(false);
    let (head, _) = head_of(&text, cap.min(PAGE_CHARS), highlight);
    if total <= cap && total <= PAGE_CHARS {
        return view! { <span class="vt">{render_pieces(head)}</span> }.into_any();
    }
    let bytes = text.len();
    let full = StoredValue::new(text);
    view! {
        <span class="vt">
            <Show
                when=move || expanded.get()
                fallback=move || view! {
                    {render_pieces(head.clone())}
                    <span class="truncated">{format!("… (truncated, {bytes} bytes)")}</span>
                    " "
                    <button type="button" class="linkish" on:click=move |_| expanded.set(true)>"show all"</button>
                }.into_any()
            >
                {move || {
                    let (pieces, shown) = full.with_value(|t| head_of(t, PAGE_CHARS, highlight));
                    view! {
                        {render_pieces(pieces)}
                        <span class="pager" data-testid="pager">
                            {(shown < total).then(|| format!(" — the first {} of {} characters shown; all of them are in the download ", grouped(shown), grouped(total)))}
                            <button type="button" class="linkish" data-testid="download-body"
                                on:click=move |_| full.with_value(|t| crate::components::export_bar::download("mcp-triage-body.txt", "text/plain;charset=utf-8", t))>"download as kept"</button>
                        </span>
                    }
                }}
            </Show>
        </span>
    }.into_any()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn pieces(text: &str, highlight: Option<[usize; 2]>) -> Vec<Piece> {
        head_of(text, usize::MAX, highlight).0
    }

    #[test]
    fn tokens_and_marks() {
        let p = pieces("a\u{202E}b\ncd", Some([3, 5]));
        assert_eq!(
            p,
            vec![
                Piece::Text("a".into()),
                Piece::Token('\u{202E}', 1),
                Piece::Text("b".into()),
                Piece::Mark("\nc".into()),
                Piece::Text("d".into()),
            ]
        );
    }

    #[test]
    fn runs_collapse_and_pages_stay_bounded() {
        let run = "\u{1}".repeat(2_097_152);
        let p = pieces(&run, None);
        assert_eq!(p, vec![Piece::Token('\u{1}', 2_097_152)]);
        assert_eq!(token_label('\u{1}', 2_097_152), "⟨U+0001⟩ × 2,097,152");
        // The worst case for nodes: tokens and letters alternating.
        let mixed = "\u{200B}a\u{1}b".repeat(100_000);
        let (first, shown) = head_of(&mixed, PAGE_CHARS, None);
        assert!(first.len() <= MAX_PIECES, "{} pieces", first.len());
        assert!(shown > 0 && shown < mixed.chars().count());
    }
}
