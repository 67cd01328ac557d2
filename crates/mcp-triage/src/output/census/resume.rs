//! `--resume`: which targets a census output already holds, and where its last whole line ends (a
//! line cut by a crash or Ctrl-C is dropped, so the file is cut back to there before appending).

use std::collections::HashSet;

use serde::Deserialize;

use crate::output::census::line::CENSUS_FORMAT;

/// What an existing output file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resume {
    /// The keys of targets already written.
    pub done: HashSet<String>,
    /// The length to keep: up to the end of the last whole line.
    pub keep_bytes: usize,
    /// A last line cut short (or not a census line) that is dropped, with why.
    pub dropped: Option<String>,
}

#[derive(Deserialize)]
struct Key {
    format: String,
    target: String,
}

/// Reads an output file. A whole line that is not a census line stops the reading with an error
/// (the file is not this census's output and nothing is cut); only the last, unterminated line
/// may be dropped.
pub fn read(bytes: &[u8]) -> Result<Resume, String> {
    let mut resume = Resume::default();
    let mut start = 0;
    for (n, line) in bytes.split_inclusive(|b| *b == b'\n').enumerate() {
        let whole = line.last() == Some(&b'\n');
        let parsed = serde_json::from_slice::<Key>(line)
            .ok()
            .filter(|k| k.format == CENSUS_FORMAT);
        match (parsed, whole) {
            (Some(k), true) => {
                resume.done.insert(k.target);
                start += line.len();
                resume.keep_bytes = start;
            }
            (_, false) => {
                resume.dropped = Some(format!(
                    "line {} was cut short ({} bytes without an end of line): dropped, its target runs again",
                    n + 1,
                    line.len()
                ));
            }
            (None, true) if line.iter().all(u8::is_ascii_whitespace) => {
                start += line.len();
                resume.keep_bytes = start;
            }
            (None, true) => {
                return Err(format!(
                    "line {} is not an {CENSUS_FORMAT} line: is this the output of a census?",
                    n + 1
                ));
            }
        }
    }
    Ok(resume)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_cut_last_line_is_dropped_and_whole_lines_are_kept() {
        let a = format!("{{\"format\":\"{CENSUS_FORMAT}\",\"target\":\"http://a/mcp\"}}\n");
        let b = format!("{{\"format\":\"{CENSUS_FORMAT}\",\"target\":\"http://b/mcp\"");
        let text = format!("{a}{b}");
        let r = read(text.as_bytes()).unwrap();
        assert_eq!(r.keep_bytes, a.len());
        assert!(r.done.contains("http://a/mcp"));
        assert!(!r.done.contains("http://b/mcp"));
        assert!(r.dropped.unwrap().contains("line 2"));
        // The same line complete is kept.
        let r = read(format!("{a}{b}}}\n").as_bytes()).unwrap();
        assert_eq!((r.done.len(), r.dropped), (2, None));
    }

    #[test]
    fn another_file_is_refused_not_cut() {
        let e = read(b"{\"format\":\"mcp-triage-report/1\"}\n").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        assert_eq!(read(b"").unwrap(), Resume::default());
    }
}
