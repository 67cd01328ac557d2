//! The envelope a card shows: the answer's JSON-RPC message, pretty, cut to a size a page draws in
//! a moment. A body near the 4 MiB cap would otherwise be escaped and indented whole (about 40 ms a
//! card in a browser) although a card shows its first 4,000 characters; the whole answer stays in
//! the card's HTTP or stdio details.

use serde_json::{Map, Value};

/// Bytes of strings and keys an envelope keeps; past it, strings end in "…" and the rest of an
/// array or object is left out.
pub(super) const ENVELOPE_KEEPS: usize = 64 * 1024;

/// What a card says under an envelope that was cut.
const CUT_NOTE: &str = "The envelope is cut to its first 64 KiB (strings end in “…”, later items are left out); the whole answer is in this card's HTTP or stdio details, as the raw body or the lines read, downloadable as kept.";

/// The message pretty, and the note when it was cut. Work and output are bounded by `keeps`,
/// whatever the message's size.
pub(super) fn envelope(message: &Value, keeps: usize) -> (String, Option<String>) {
    let mut budget = keeps;
    let mut cut = false;
    let kept = clip(message, &mut budget, &mut cut);
    let text = serde_json::to_string_pretty(&kept).unwrap_or_default();
    (text, cut.then(|| CUT_NOTE.to_string()))
}

/// A copy of `v` holding at most `budget` bytes of strings and keys (each scalar counts 8).
fn clip(v: &Value, budget: &mut usize, cut: &mut bool) -> Value {
    match v {
        Value::String(s) => Value::String(clip_str(s, budget, cut)),
        Value::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                if *budget == 0 {
                    *cut = true;
                    break;
                }
                out.push(clip(item, budget, cut));
            }
            Value::Array(out)
        }
        Value::Object(fields) => {
            let mut out = Map::new();
            for (key, value) in fields {
                if *budget == 0 {
                    *cut = true;
                    break;
                }
                let key = clip_str(key, budget, cut);
                out.insert(key, clip(value, budget, cut));
            }
            Value::Object(out)
        }
        scalar => {
            *budget = budget.saturating_sub(8);
            scalar.clone()
        }
    }
}

/// `s` whole if it fits the budget, else its head (on a character boundary) and "…".
fn clip_str(s: &str, budget: &mut usize, cut: &mut bool) -> String {
    if s.len() <= *budget {
        *budget -= s.len();
        return s.to_string();
    }
    let mut end = *budget;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    *budget = 0;
    *cut = true;
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use serde_json::json;

    #[test]
    fn a_small_message_is_shown_whole_with_no_note() {
        let m = json!({"jsonrpc": "2.0", "id": 3, "result": {"isError": true, "content": [{"type": "text", "text": "boom"}]}});
        let (text, note) = envelope(&m, ENVELOPE_KEEPS);
        assert_eq!(text, serde_json::to_string_pretty(&m).unwrap());
        assert_eq!(note, None);
    }

    #[test]
    fn a_long_string_is_cut_on_a_character_boundary_and_said_so() {
        let long = "é".repeat(100_000);
        let m = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": long}]}, "z": [1, 2, 3]});
        let (text, note) = envelope(&m, 1_000);
        assert!(text.len() < 1_200, "{} bytes", text.len());
        let back: Value = serde_json::from_str(&text).unwrap();
        let kept = back["result"]["content"][0]["text"].as_str().unwrap();
        assert!(kept.ends_with('…') && kept.starts_with("éé"));
        // Keys are kept in order until the budget runs out: "z" comes after the cut.
        assert!(back.get("z").is_none());
        assert!(note.unwrap().contains("HTTP or stdio details"));
    }

    #[test]
    fn many_small_items_stop_at_the_budget() {
        let m = Value::Array((0..100_000).map(|i| json!({ "k": i })).collect());
        let (text, note) = envelope(&m, 4_096);
        let back: Value = serde_json::from_str(&text).unwrap();
        let n = back.as_array().unwrap().len();
        assert!(n > 100 && n < 1_000, "{n} items kept");
        assert!(note.is_some());
    }
}
