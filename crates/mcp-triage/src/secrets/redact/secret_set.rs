//! The run's secrets as a sorted table of 8-character windows, ready for the matcher.

use super::forms::{case_sensitive_forms, hex_lower};
use crate::vocabulary::limits::MIN_SECRET_RUN;

/// The secrets of a run. `Debug` never prints them; there is deliberately no `Serialize`.
#[derive(Clone, Default)]
pub struct Secrets {
    pub(super) values: Vec<String>,
    /// Every 8-character window of every case-sensitive form, packed in a `u64`, sorted.
    pub(super) windows: Vec<u64>,
    /// The same for the hex forms, lower-cased (matched against lower-cased text).
    pub(super) hex_windows: Vec<u64>,
    /// A bit per hash of each table's windows ([`Secrets::may_hold`]): most of a text's windows
    /// are ruled out by one bit, before any search of the tables.
    filter: Vec<u64>,
    hex_filter: Vec<u64>,
}

/// Bits in each window filter (8 KiB each).
const FILTER_BITS: usize = 1 << 16;

/// A window's bit in a filter.
fn filter_bit(window: u64) -> usize {
    (window.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize % FILTER_BITS
}

fn filter_of(windows: &[u64]) -> Vec<u64> {
    let mut filter = vec![0u64; FILTER_BITS / 64];
    for w in windows {
        let bit = filter_bit(*w);
        filter[bit / 64] |= 1 << (bit % 64);
    }
    filter
}

fn in_filter(filter: &[u64], window: u64) -> bool {
    let bit = filter_bit(window);
    filter
        .get(bit / 64)
        .is_some_and(|word| word & (1 << (bit % 64)) != 0)
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets([REDACTED] x{})", self.values.len())
    }
}

/// Sorts window keys in place in O(n log n) with a few lines of code: the standard library's sorts
/// cost kilobytes of bundle per element type, and every byte is downloaded by every visitor.
pub(super) fn heapsort(v: &mut [u64]) {
    fn sift_down(v: &mut [u64], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && v[child] < v[child + 1] {
                child += 1;
            }
            if v[root] >= v[child] {
                return;
            }
            v.swap(root, child);
            root = child;
        }
    }
    for start in (0..v.len() / 2).rev() {
        sift_down(v, start, v.len());
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

/// Packs 8 printable ASCII bytes into a window key.
fn key(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |k, b| (k << 8) | u64::from(*b))
}

fn windows_of(form: &str, out: &mut Vec<u64>) {
    let b = form.as_bytes();
    if b.len() >= MIN_SECRET_RUN {
        out.extend(b.windows(MIN_SECRET_RUN).map(key));
    }
}

impl Secrets {
    /// These secrets and `more` (values never sent but redacted all the same: a sign-in's code,
    /// verifier and refresh token).
    pub fn and(&self, more: &[String]) -> Secrets {
        Secrets::new(self.values.iter().chain(more).map(String::as_str))
    }

    /// Secrets from the token and extra secret header values. Values shorter than
    /// `MIN_SECRET_RUN` characters are ignored here (the form refuses them before a run).
    pub fn new<'a>(values: impl IntoIterator<Item = &'a str>) -> Secrets {
        let mut values: Vec<String> = values
            .into_iter()
            .map(str::trim)
            .filter(|v| v.len() >= MIN_SECRET_RUN)
            .map(str::to_string)
            .collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        let mut windows = Vec::new();
        let mut hex_windows = Vec::new();
        for v in &values {
            for form in case_sensitive_forms(v) {
                windows_of(&form, &mut windows);
            }
            windows_of(&hex_lower(v), &mut hex_windows);
        }
        heapsort(&mut windows);
        windows.dedup();
        heapsort(&mut hex_windows);
        hex_windows.dedup();
        Secrets {
            values,
            filter: filter_of(&windows),
            hex_filter: filter_of(&hex_windows),
            windows,
            hex_windows,
        }
    }

    /// Whether an 8-character window of a text (as is, and lower-cased when it is all hex digits)
    /// is a window of a secret form: the filters first, then the sorted tables.
    pub(super) fn may_hold(&self, exact: u64, lower_hex: Option<u64>) -> bool {
        (in_filter(&self.filter, exact) && self.windows.binary_search(&exact).is_ok())
            || lower_hex.is_some_and(|lower| {
                in_filter(&self.hex_filter, lower) && self.hex_windows.binary_search(&lower).is_ok()
            })
    }

    /// True when there is nothing to redact but patterns.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}
