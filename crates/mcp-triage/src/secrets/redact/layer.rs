//! Readings of a text: one unit per printable ASCII character, with one layer of JSON, percent or
//! HTML escapes decoded at a time.

/// One reading of a text: a character per unit (printable ASCII as itself, anything else as 0) and
/// where each unit starts in the source text. Units tile the source: a unit ends where the next starts.
/// A start is a `u32` (5 bytes a character in all, not 9): a text this long is at most 4 GiB
/// ([`Layer::fits`]). An ASCII text read as it is keeps no starts: unit `i` starts at byte `i`.
pub(super) struct Layer {
    pub(super) chars: Vec<u8>,
    starts: Option<Vec<u32>>,
    end: usize,
}

fn printable(c: u32) -> u8 {
    if (0x20..0x7f).contains(&c) {
        c as u8
    } else {
        0
    }
}

fn hex_value(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// Named character references of printable ASCII characters.
const NAMED: &[(&str, u8)] = &[
    ("DiacriticalGrave", b'`'),
    ("VerticalLine", b'|'),
    ("UnderBar", b'_'),
    ("percnt", b'%'),
    ("period", b'.'),
    ("commat", b'@'),
    ("equals", b'='),
    ("dollar", b'$'),
    ("midast", b'*'),
    ("lbrack", b'['),
    ("rbrack", b']'),
    ("lbrace", b'{'),
    ("rbrace", b'}'),
    ("lowbar", b'_'),
    ("verbar", b'|'),
    ("colon", b':'),
    ("comma", b','),
    ("quest", b'?'),
    ("grave", b'`'),
    ("apos", b'\''),
    ("quot", b'"'),
    ("QUOT", b'"'),
    ("plus", b'+'),
    ("bsol", b'\\'),
    ("excl", b'!'),
    ("lpar", b'('),
    ("rpar", b')'),
    ("semi", b';'),
    ("lsqb", b'['),
    ("rsqb", b']'),
    ("lcub", b'{'),
    ("rcub", b'}'),
    ("vert", b'|'),
    ("amp", b'&'),
    ("AMP", b'&'),
    ("sol", b'/'),
    ("num", b'#'),
    ("ast", b'*'),
    ("Hat", b'^'),
    ("lt", b'<'),
    ("LT", b'<'),
    ("gt", b'>'),
    ("GT", b'>'),
];

impl Layer {
    /// Whether `text` is short enough for a layer's offsets (4 GiB).
    pub(super) fn fits(text: &str) -> bool {
        u32::try_from(text.len()).is_ok()
    }

    pub(super) fn of_text(text: &str) -> Layer {
        if text.is_ascii() {
            return Layer {
                chars: text.bytes().map(|b| printable(u32::from(b))).collect(),
                starts: None,
                end: text.len(),
            };
        }
        let mut chars = Vec::with_capacity(text.len());
        let mut starts = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            chars.push(printable(c as u32));
            starts.push(u32::try_from(i).unwrap_or(u32::MAX));
        }
        Layer {
            chars,
            starts: Some(starts),
            end: text.len(),
        }
    }

    /// One escape decoded at `i`: (the character, how many units it took), or `None`.
    fn escape_at(&self, i: usize) -> Option<(u8, usize)> {
        let c = &self.chars;
        let at = |k: usize| c.get(i + k).copied().unwrap_or(0);
        match at(0) {
            b'\\' => match at(1) {
                b'u' => {
                    let unit = |o: usize| -> Option<u32> {
                        (0..4).try_fold(0u32, |acc, k| Some(acc * 16 + hex_value(at(o + k))?))
                    };
                    let hi = unit(2)?;
                    if (0xD800..0xDC00).contains(&hi)
                        && at(6) == b'\\'
                        && at(7) == b'u'
                        && unit(8).is_some_and(|lo| (0xDC00..0xE000).contains(&lo))
                    {
                        // A surrogate pair: one character outside ASCII.
                        return Some((0, 12));
                    }
                    Some((printable(hi), 6))
                }
                b'"' => Some((b'"', 2)),
                b'\\' => Some((b'\\', 2)),
                b'/' => Some((b'/', 2)),
                b'b' | b'f' | b'n' | b'r' | b't' => Some((0, 2)),
                _ => None,
            },
            b'%' => {
                let v = hex_value(at(1))? * 16 + hex_value(at(2))?;
                Some((printable(v), 3))
            }
            b'&' => {
                if at(1) == b'#' {
                    let (radix, first) = if matches!(at(2), b'x' | b'X') {
                        (16, 3)
                    } else {
                        (10, 2)
                    };
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < 8 {
                        match (at(first + n) as char).to_digit(radix) {
                            Some(d) => v = v.saturating_mul(radix).saturating_add(d),
                            None => break,
                        }
                        n += 1;
                    }
                    if n == 0 {
                        return None;
                    }
                    let semi = usize::from(at(first + n) == b';');
                    return Some((printable(v), first + n + semi));
                }
                let (name, ch) = NAMED
                    .iter()
                    .find(|(name, _)| name.bytes().enumerate().all(|(k, b)| at(1 + k) == b))?;
                let semi = usize::from(at(1 + name.len()) == b';');
                Some((*ch, 1 + name.len() + semi))
            }
            _ => None,
        }
    }

    /// This reading with one layer of escapes decoded.
    pub(super) fn decoded(&self) -> Layer {
        let mut chars = Vec::with_capacity(self.chars.len());
        let mut starts = Vec::with_capacity(self.chars.len());
        let mut i = 0;
        while i < self.chars.len() {
            let (ch, took) = self.escape_at(i).unwrap_or((self.chars[i], 1));
            chars.push(ch);
            starts.push(u32::try_from(self.start(i)).unwrap_or(u32::MAX));
            i += took.max(1);
        }
        Layer {
            chars,
            starts: Some(starts),
            end: self.end,
        }
    }

    /// Where unit `i` starts in the source text.
    pub(super) fn start(&self, i: usize) -> usize {
        match &self.starts {
            Some(starts) => starts.get(i).map_or(self.end, |&s| s as usize),
            None if i < self.chars.len() => i,
            None => self.end,
        }
    }

    pub(super) fn unit_end(&self, i: usize) -> usize {
        self.start(i + 1)
    }
}
