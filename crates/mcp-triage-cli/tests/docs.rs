//! The project's one link and command checker: every relative link in README.md, the other
//! top-level documents and docs/ resolves (to a file, and with a fragment to one of its headings),
//! and every `mcp-triage …` line in their code blocks names a command whose `--help` lists each
//! option the line uses (a help-level check: nothing is run, so lines that need the network are
//! checked too), every "SECURITY.md rule N" a source file or document cites is a rule of
//! SECURITY.md, and ARCHITECTURE.md names every public module of the core. Controls: a moved file
//! (in docs/ and on the map), a made-up option, a citation of a missing rule and a module taken off
//! the map are caught.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents checked, relative to `root`: the top-level Markdown files and docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [root.to_path_buf(), root.join("docs")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md") {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// What a document holds for the checks.
#[derive(Default)]
struct Doc {
    links: Vec<String>,
    anchors: BTreeSet<String>,
    code_lines: Vec<String>,
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; a repeated
/// heading gets `-1`, `-2`, ….
fn slug(text: &str, seen: &mut BTreeMap<String, usize>) -> String {
    let base: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect();
    let n = seen.entry(base.clone()).or_insert(0);
    let out = if *n == 0 {
        base.clone()
    } else {
        format!("{base}-{n}")
    };
    *n += 1;
    out
}

fn read_doc(text: &str) -> Doc {
    let mut doc = Doc::default();
    let mut heading: Option<String> = None;
    let mut code: Option<String> = None;
    let mut seen = BTreeMap::new();
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                doc.links.push(dest_url.to_string());
            }
            Event::Start(Tag::Heading { .. }) => {
                heading = Some(String::new());
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(h) = heading.take() {
                    doc.anchors.insert(slug(&h, &mut seen));
                }
            }
            Event::Start(Tag::CodeBlock(_)) => code = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => {
                if let Some(c) = code.take() {
                    doc.code_lines.extend(c.lines().map(str::to_string));
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
                if let Some(c) = code.as_mut() {
                    c.push_str(&t);
                }
            }
            _ => {}
        }
    }
    doc
}

/// Every relative link of `docs` (paths under `root`) that does not resolve, as `doc: link`.
/// Returns the problems and how many links were checked.
fn broken_links(root: &Path, docs: &[PathBuf]) -> (Vec<String>, usize) {
    let mut read: BTreeMap<PathBuf, Doc> = BTreeMap::new();
    for d in docs {
        read.insert(
            d.clone(),
            read_doc(&std::fs::read_to_string(root.join(d)).unwrap()),
        );
    }
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, doc) in &read {
        for link in &doc.links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = match link.split_once('#') {
                Some((f, frag)) => (f, Some(frag)),
                None => (link.as_str(), None),
            };
            let dir = path.parent().unwrap_or(Path::new(""));
            let target = if file.is_empty() {
                path.clone()
            } else {
                normalise(&dir.join(file))
            };
            if !root.join(&target).exists() {
                problems.push(format!("{}: {link} (no such file)", path.display()));
                continue;
            }
            let Some(fragment) = fragment else { continue };
            if target.extension().is_none_or(|x| x != "md") {
                continue;
            }
            let anchors = match read.get(&target) {
                Some(d) => d.anchors.clone(),
                None => read_doc(&std::fs::read_to_string(root.join(&target)).unwrap()).anchors,
            };
            if !anchors.contains(fragment) {
                problems.push(format!(
                    "{}: {link} (no heading #{fragment} in {})",
                    path.display(),
                    target.display()
                ));
            }
        }
    }
    (problems, checked)
}

/// `a/b/../c` as `a/c` (the file need not exist).
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The command and options of a code line that runs `mcp-triage` (any path to it), if it does.
fn command_of(line: &str) -> Option<(String, Vec<String>)> {
    let line = line.split(" # ").next().unwrap_or(line);
    let mut words = line.split_whitespace().skip_while(|w| {
        let w = w.trim_start_matches('(');
        w != "mcp-triage" && !w.ends_with("/mcp-triage")
    });
    words.next()?;
    let mut rest: Vec<&str> = Vec::new();
    let mut depth = 0i32;
    for w in words {
        if w.starts_with('>') || w.starts_with("2>") || (w == "|" && depth == 0) {
            break;
        }
        depth += w.matches('[').count() as i32 - w.matches(']').count() as i32;
        rest.push(w);
    }
    let mut command = match rest.first() {
        Some(w) if !w.starts_with('-') && !w.starts_with('[') => w.to_string(),
        _ => String::new(),
    };
    if command == "census" && rest.get(1) == Some(&"report") {
        command = "census report".into();
    }
    let options = rest
        .iter()
        .map(|w| w.trim_start_matches('['))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.split('=')
                .next()
                .unwrap_or(w)
                .trim_end_matches([']', ',', ')', '.'])
                .to_string()
        })
        .collect();
    Some((command, options))
}

/// What is wrong with one command line: an unknown command, or an option its help does not list.
fn command_problems(
    line: &str,
    help: &mut BTreeMap<String, Result<String, String>>,
) -> Vec<String> {
    let Some((command, options)) = command_of(line) else {
        return Vec::new();
    };
    let text = help
        .entry(command.clone())
        .or_insert_with(|| {
            let mut args: Vec<&str> = command.split_whitespace().collect();
            args.push("--help");
            let out = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
                .args(&args)
                .output()
                .unwrap();
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if out.status.success() {
                Ok(all)
            } else {
                Err(all.lines().next().unwrap_or_default().to_string())
            }
        })
        .clone();
    let help = match text {
        Ok(h) => h,
        Err(why) => return vec![format!("{line}: {why}")],
    };
    options
        .into_iter()
        .filter(|o| {
            !help.match_indices(o.as_str()).any(|(i, _)| {
                help[i + o.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
            })
        })
        .map(|o| format!("{line}: {o} is not in `mcp-triage {command} --help`"))
        .collect()
}

#[test]
fn every_relative_link_in_the_documents_resolves() {
    let root = root();
    let docs = documents(&root);
    assert!(docs.contains(&PathBuf::from("README.md")), "{docs:?}");
    assert!(docs.len() >= 10, "README.md and docs/: {docs:?}");
    let (problems, checked) = broken_links(&root, &docs);
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
    assert!(checked >= 40, "only {checked} relative links checked");
    println!("{checked} relative links in {} documents", docs.len());
}

#[test]
fn a_moved_file_or_heading_turns_the_link_check_red() {
    // The control: the real documents in a scratch copy, with one linked page moved away and one
    // heading renamed.
    let root = root();
    let scratch = std::env::temp_dir().join(format!("mcp-triage-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("docs")).unwrap();
    let docs = documents(&root);
    for d in &docs {
        std::fs::copy(root.join(d), scratch.join(d)).unwrap();
    }
    for other in ["fixtures/README.md", "packages/npm/README.md"] {
        let to = scratch.join(other);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(other), to).unwrap();
    }
    std::fs::rename(scratch.join("docs/ci.md"), scratch.join("docs/ci-moved.md")).unwrap();
    let cli = std::fs::read_to_string(scratch.join("docs/cli.md")).unwrap();
    std::fs::write(
        scratch.join("docs/cli.md"),
        cli.replace("## Exit status", "## Exit codes"),
    )
    .unwrap();
    let (problems, _) = broken_links(&scratch, &documents(&scratch));
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        problems.iter().any(|p| p.contains("ci.md (no such file)")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("#exit-status")),
        "{problems:?}"
    );
}

#[test]
fn every_mcp_triage_line_in_the_documents_parses() {
    let root = root();
    let mut help = BTreeMap::new();
    let mut problems = Vec::new();
    let mut checked = 0;
    for d in documents(&root) {
        let doc = read_doc(&std::fs::read_to_string(root.join(&d)).unwrap());
        for line in &doc.code_lines {
            if command_of(line).is_some() {
                checked += 1;
                problems.extend(
                    command_problems(line, &mut help)
                        .into_iter()
                        .map(|p| format!("{}: {p}", d.display())),
                );
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 15, "only {checked} command lines checked");
    println!("{checked} mcp-triage command lines");
}

#[test]
fn a_made_up_option_or_command_is_caught() {
    let mut help = BTreeMap::new();
    assert!(
        command_problems(
            "target/release/mcp-triage probe URL --token-env T --no-such-option",
            &mut help
        )
        .iter()
        .any(|p| p.contains("--no-such-option")),
    );
    // A prefix of a real option is not the option.
    assert!(!command_problems("mcp-triage probe URL --tok", &mut help).is_empty());
    assert!(!command_problems("mcp-triage probes URL", &mut help).is_empty());
    assert!(command_problems("mcp-triage diff A B [--json | --markdown]", &mut help).is_empty());
    assert!(command_of("cargo install --locked twiggy").is_none());
}

/// The numbers of the rules in SECURITY.md: every line that opens with `N. ` outside code blocks
/// (the numbered list under "The rules"; nothing else in the file is a numbered list).
fn security_rules(text: &str) -> BTreeSet<u32> {
    let mut rules = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some((n, _)) = line.split_once(". ")
            && let Ok(n) = n.parse()
        {
            rules.insert(n);
        }
    }
    rules
}

/// What is wrong with the rule citations in one file's text: a "SECURITY.md rule N" whose N is not
/// a rule, or a citation of the old copy outside the repository (the one in `../shared`). Returns
/// the problems and how many citations were read. "SECURITY.md rule" followed by anything but a
/// number (as in this comment) is no citation.
fn citation_problems(file: &str, text: &str, rules: &BTreeSet<u32>) -> (Vec<String>, usize) {
    const CITE: &str = "SECURITY.md rule ";
    // Spelled in two pieces so that this file does not cite the old copy itself.
    const OLD: &str = concat!("shared/", "SECURITY.md");
    let mut problems = Vec::new();
    let mut cited = 0;
    for (n, line) in text.lines().enumerate() {
        let at = format!("{file}:{}", n + 1);
        if line.contains(OLD) {
            problems.push(format!(
                "{at}: cites {OLD}, not the repository's SECURITY.md"
            ));
        }
        for (i, _) in line.match_indices(CITE) {
            let digits: String = line[i + CITE.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let Ok(rule) = digits.parse::<u32>() else {
                continue;
            };
            cited += 1;
            if !rules.contains(&rule) {
                problems.push(format!("{at}: SECURITY.md has no rule {rule}"));
            }
        }
    }
    (problems, cited)
}

/// The source files whose comments may cite a rule: under crates/, web/src, packages/, scripts/
/// and e2e/ (no node_modules, .venv or build output), and the documents.
fn citing_files(root: &Path) -> Vec<PathBuf> {
    const EXTENSIONS: &[&str] = &["rs", "mjs", "cjs", "js", "ts", "py", "sh", "md", "toml"];
    const SKIPPED: &[&str] = &["node_modules", ".venv", "target", "dist", "__pycache__"];
    let mut out = documents(root);
    let mut dirs: Vec<PathBuf> = ["crates", "web/src", "packages", "scripts", "e2e"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if p.is_dir() {
                if !SKIPPED.contains(&name.as_str()) {
                    dirs.push(p);
                }
            } else if p
                .extension()
                .is_some_and(|x| EXTENSIONS.contains(&x.to_string_lossy().as_ref()))
            {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_security_rule_cited_in_the_code_is_in_security_md() {
    let root = root();
    let rules = security_rules(&std::fs::read_to_string(root.join("SECURITY.md")).unwrap());
    assert!(rules.len() >= 11, "rules found in SECURITY.md: {rules:?}");
    let mut problems = Vec::new();
    let mut cited = 0;
    let files = citing_files(&root);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else {
            continue;
        };
        let (p, n) = citation_problems(&f.display().to_string(), &text, &rules);
        problems.extend(p);
        cited += n;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(cited >= 5, "only {cited} rule citations found");
    println!(
        "{cited} rule citations in {} files, {} rules",
        files.len(),
        rules.len()
    );
}

#[test]
fn a_citation_of_a_missing_rule_or_the_old_copy_is_caught() {
    let rules = security_rules(&std::fs::read_to_string(root().join("SECURITY.md")).unwrap());
    let missing = rules.last().unwrap() + 1;
    let present = rules.first().unwrap();
    let cite = |n: u32| format!("// what SECURITY.md rule {n} allows");
    let (p, n) = citation_problems("a.rs", &cite(*present), &rules);
    assert!(p.is_empty() && n == 1, "{p:?}");
    let (p, n) = citation_problems("a.rs", &cite(missing), &rules);
    assert_eq!(n, 1);
    assert!(
        p.iter()
            .any(|p| p.contains(&format!("has no rule {missing}"))),
        "{p:?}"
    );
    let old = format!("//! (`../shared/{}` rule {present})", "SECURITY.md");
    assert!(!citation_problems("a.rs", &old, &rules).0.is_empty());
}

/// The core's public modules, read from its lib.rs: every `pub mod NAME` at the start of a line
/// (an item of the crate root, whatever `#[cfg]` is above it, so `testing` counts), and every
/// `pub use PATH as NAME;` at the start of a line (a module re-exported under a name of its own; a
/// renamed function or type would count too, which only asks for one word more on the map). Plain
/// `pub use` lines re-export functions and types, not modules, and indented lines are inside a
/// module.
fn public_modules(lib_rs: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for line in lib_rs.lines() {
        if let Some(rest) = line.strip_prefix("pub mod ") {
            out.push(ident(rest));
        } else if line.starts_with("pub use ")
            && let Some((_, alias)) = line.rsplit_once(" as ")
        {
            out.push(ident(alias));
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

/// The modules of `modules` the map does not name. A module is named when the map has the inline
/// code `mcp_triage::NAME`, so a folder or a file of the same name (`output/replay/`, `stdio.rs`)
/// does not stand in for it.
fn missing_from_map(modules: &[String], map: &str) -> Vec<String> {
    let mut spans = BTreeSet::new();
    for event in Parser::new_ext(map, Options::ENABLE_TABLES) {
        if let Event::Code(c) = event {
            spans.insert(c.to_string());
        }
    }
    modules
        .iter()
        .filter(|m| !spans.contains(&format!("mcp_triage::{m}")))
        .cloned()
        .collect()
}

#[test]
fn every_public_module_of_the_core_is_on_the_map() {
    let root = root();
    let lib = std::fs::read_to_string(root.join("crates/mcp-triage/src/lib.rs")).unwrap();
    let modules = public_modules(&lib);
    assert!(
        modules.len() >= 19 && modules.contains(&"testing".to_string()),
        "public modules read from lib.rs: {modules:?}"
    );
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let missing = missing_from_map(&modules, &map);
    assert!(
        missing.is_empty(),
        "public modules of the core that ARCHITECTURE.md does not name as `mcp_triage::NAME`: \
         {missing:?}"
    );
    println!("{} public modules on the map", modules.len());
}

#[test]
fn a_module_missing_from_the_map_is_caught() {
    // The reading of lib.rs: crate-root `pub mod`s (cfg-gated too) and renamed re-exports, not
    // nested modules or plain re-exports.
    let lib = "mod private;\n#[cfg(feature = \"x\")]\npub mod gated;\npub mod inline {\n    \
               pub mod nested {}\n}\npub use a::b::{Item, func};\npub use a::c as renamed;\n";
    assert_eq!(public_modules(lib), ["gated", "inline", "renamed"]);
    // The real map, with one module's name taken out, fails.
    let root = root();
    let modules = public_modules(
        &std::fs::read_to_string(root.join("crates/mcp-triage/src/lib.rs")).unwrap(),
    );
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    assert!(missing_from_map(&modules, &map).is_empty());
    let without = map.replace("`mcp_triage::stdio`", "`stdio`");
    assert_ne!(without, map, "the map names `mcp_triage::stdio`");
    assert_eq!(missing_from_map(&modules, &without), ["stdio"]);
}

#[test]
fn a_moved_file_linked_from_the_map_turns_the_link_check_red() {
    // The control: ARCHITECTURE.md in a scratch tree that holds every path it links to (documents
    // copied, other files empty, folders made), which must pass; then one linked file moves.
    let root = root();
    let scratch = std::env::temp_dir().join(format!("mcp-triage-map-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let map = PathBuf::from("ARCHITECTURE.md");
    std::fs::copy(root.join(&map), scratch.join(&map)).unwrap();
    let links = read_doc(&std::fs::read_to_string(root.join(&map)).unwrap()).links;
    let mut made = 0;
    for link in links.iter().filter(|l| !l.contains("://")) {
        let path = normalise(Path::new(link.split('#').next().unwrap_or(link)));
        let (from, to) = (root.join(&path), scratch.join(&path));
        if from.is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            if path.extension().is_some_and(|x| x == "md") {
                std::fs::copy(&from, &to).unwrap();
            } else {
                std::fs::write(&to, "").unwrap();
            }
        }
        made += 1;
    }
    let (before, checked) = broken_links(&scratch, std::slice::from_ref(&map));
    let moved = "crates/mcp-triage-cli/src/transports/stdio.rs";
    std::fs::rename(
        scratch.join(moved),
        scratch.join("crates/mcp-triage-cli/src/stdio.rs"),
    )
    .unwrap();
    let (after, _) = broken_links(&scratch, std::slice::from_ref(&map));
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(before.is_empty(), "the scratch tree: {before:?}");
    assert!(
        made >= 50 && checked == made,
        "{made} paths made, {checked} links checked"
    );
    assert_eq!(
        after,
        [format!("ARCHITECTURE.md: {moved} (no such file)")],
        "{after:?}"
    );
    println!("{made} paths linked from the map, one moved");
}
