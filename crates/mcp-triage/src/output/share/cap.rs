//! Length caps (characters) of the schema (the same in every version), and `clip`, which keeps a
//! string within one.

pub(super) const SHORT: usize = 32;
pub(super) const NAME: usize = 128;
pub(super) const LINE: usize = 256;
pub(super) const TEXT: usize = 512;
pub(super) const EXCERPT: usize = 1024;
pub(super) const ENDPOINT: usize = 512;
pub(super) const ITEMS: usize = 8;

pub(super) fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
