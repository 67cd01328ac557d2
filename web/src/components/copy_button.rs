//! A button that copies text to the clipboard and says so.

use leptos::prelude::*;

/// Copies `text` when clicked.
#[component]
pub fn CopyButton(
    label: &'static str,
    text: String,
    #[prop(optional)] testid: &'static str,
) -> impl IntoView {
    let done = RwSignal::new(false);
    let text = StoredValue::new(text);
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&text.get_value());
            done.set(true);
        }
    };
    view! {
        <button type="button" on:click=copy data-testid=testid>
            {move || if done.get() { "Copied ✓" } else { label }}
        </button>
    }
    .into_any()
}
