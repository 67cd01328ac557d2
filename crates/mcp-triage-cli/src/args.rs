//! What every command's arguments share, read by clap: the help layout (a usage line, then two
//! examples), the core's eras as a value list, values read from the environment (`--token-env`,
//! `--secret-env`, `--header-env`) and the short usage error: the error, perhaps a note saying why,
//! and one line pointing to `--help`, with the core's status for bad usage.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use mcp_triage::endpoint;
use mcp_triage::engine::{ERA_VALUES, Era, exit};
use mcp_triage::limits::Limits;

/// The layout of every command's help: the usage line, the examples and what the command does
/// (`{before-help}`: [`intro`]), its options, then more words and the exit table (`{after-help}`:
/// [`after_help`]).
pub(crate) const HELP_TEMPLATE: &str =
    "{usage-heading} {usage}\n\n{before-help}{all-args}{after-help}";

/// What a command's help says before its options: `examples` (lines that run it), then `about`.
pub(crate) fn intro(examples: &[&str], about: &str) -> String {
    let mut out = String::from("Examples:");
    for line in examples {
        out.push_str("\n  ");
        out.push_str(line);
    }
    out.push_str("\n\n");
    out.push_str(about);
    out
}

/// The words after a command's options: `words`, then the exit table of the core.
pub(crate) fn after_help(words: &str) -> String {
    if words.is_empty() {
        exit::table_text()
    } else {
        format!("{words}\n\n{}", exit::table_text())
    }
}

/// An era, one of the core's [`ERA_VALUES`] (by index): the values `--era` takes, the default
/// first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct EraArg(usize);

const ERA_COUNT: usize = ERA_VALUES.len();

static ERAS: [EraArg; ERA_COUNT] = {
    let mut all = [EraArg(0); ERA_COUNT];
    let mut i = 0;
    while i < ERA_COUNT {
        all[i] = EraArg(i);
        i += 1;
    }
    all
};

impl EraArg {
    /// The era chosen, as the core reads its value.
    pub(crate) fn era(self) -> Era {
        ERA_VALUES
            .get(self.0)
            .and_then(|value| Era::parse(value))
            .unwrap_or_else(Era::default_choice)
    }
}

impl ValueEnum for EraArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ERAS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        ERA_VALUES
            .get(self.0)
            .map(|value| PossibleValue::new(*value))
    }
}

/// The help of an `--era` option: `lead`, then the core's eras (the first marked the default when
/// it is the option's).
pub(crate) fn era_help(lead: &str, first_is_default: bool) -> String {
    let mut values: Vec<String> = ERA_VALUES.iter().map(|v| v.to_string()).collect();
    if first_is_default && let Some(first) = values.first_mut() {
        first.push_str(" (default)");
    }
    let last = values.pop().unwrap_or_default();
    format!("{lead}:\n{} or {last}", values.join(", "))
}

/// The value of environment variable `var`.
fn from_env(var: &str) -> Result<String, String> {
    std::env::var(var).map_err(|_| format!("environment variable {var} is not set"))
}

/// A value read from the environment, named by its variable: never shown by `Debug`.
#[derive(Clone)]
pub(crate) struct FromEnv(pub(crate) String);

impl std::fmt::Debug for FromEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FromEnv(..)")
    }
}

/// `--token-env VAR`: the value of VAR.
pub(crate) fn token_env(var: &str) -> Result<FromEnv, String> {
    from_env(var).map(FromEnv)
}

/// `--secret-env VAR` (probe and replay alike): the value of VAR, a secret redacted from every
/// output, checked as a token is (the same rule for what redaction can tell apart), and not blank.
pub(crate) fn secret_env(var: &str) -> Result<FromEnv, String> {
    let value = from_env(var)?;
    endpoint::check_header_value(&value, Limits::default().max_token_bytes, true)
        .map_err(|p| format!("{var}: {p}"))?;
    if value.trim().is_empty() {
        return Err(format!("{var} is empty"));
    }
    Ok(FromEnv(value))
}

/// `NAME=VALUE`, the name trimmed and not empty.
pub(crate) fn name_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("takes NAME=VALUE, not {text:?}"))
}

/// `--header-env NAME=VAR`: the header's name and the value of VAR.
pub(crate) fn header_env(text: &str) -> Result<(String, FromEnv), String> {
    let (name, var) = name_value(text).map_err(|_| format!("takes NAME=VAR, not {text:?}"))?;
    Ok((name, FromEnv(from_env(&var)?)))
}

/// Why a rule between options holds: shown under clap's error for a conflict or a missing
/// argument whose words name every one of `names` (the options as clap writes them: `'--oauth'`,
/// `[URL]`).
pub(crate) struct Note {
    pub(crate) names: &'static [&'static str],
    pub(crate) why: &'static str,
}

/// The most lines of clap's own words a usage error keeps (the error, the values it takes).
const ERROR_LINES: usize = 3;

/// Prints clap's `error` for `command` (`mcp-triage probe`) as the usage error or help it is;
/// returns the exit status: the core's for bad usage, or [`exit::OK`] for `--help` and
/// `--version`, which go to standard output.
pub(crate) fn refuse(command: &str, mut error: clap::Error, notes: &[Note]) -> u8 {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        print!("{}", error.render());
        return exit::OK;
    }
    // The error without clap's usage lines and its own pointer to help: ours follows.
    error.insert(ContextKind::Usage, ContextValue::None);
    let rendered = error.render().to_string();
    let mut lines: Vec<&str> = rendered
        .lines()
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .filter(|l| {
            !l.trim().is_empty()
                && !l.starts_with("For more information")
                // A value that starts with `-` goes after `--`: not in `probe`, whose `--` starts
                // a stdio server's command.
                && !l.contains("as a value, use '--")
        })
        .collect();
    lines.truncate(ERROR_LINES);
    // A note says why a rule between options holds: only under an error that breaks one.
    let ruled = matches!(
        error.kind(),
        ErrorKind::ArgumentConflict | ErrorKind::MissingRequiredArgument
    );
    let said = lines.join("\n");
    let note = notes
        .iter()
        .filter(|_| ruled)
        .find(|n| n.names.iter().all(|name| said.contains(name)));
    say(command, &lines, note.map(|n| n.why))
}

/// A usage error found after parsing (a file, standard input, a rule clap cannot state): the same
/// few lines as clap's.
pub(crate) fn refuse_with(command: &str, message: &str) -> u8 {
    say(command, &[message], None)
}

fn say(command: &str, lines: &[&str], note: Option<&str>) -> u8 {
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            text.push_str(&format!("{command}: {line}\n"));
        } else {
            text.push_str(&format!("{line}\n"));
        }
    }
    if let Some(why) = note {
        text.push_str(&format!("  {why}\n"));
    }
    text.push_str(&format!("See '{command} --help'.\n"));
    eprint!("{text}");
    exit::USAGE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_era_of_the_core_is_a_value_and_the_default_is_its_first() {
        let values: Vec<String> = EraArg::value_variants()
            .iter()
            .filter_map(|e| e.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        let core: Vec<&str> = ERA_VALUES.to_vec();
        assert_eq!(values, core);
        for e in EraArg::value_variants() {
            assert!(Era::parse(e.era().choice()).is_some());
        }
        assert_eq!(EraArg::default().era(), Era::default_choice());
    }

    #[test]
    fn the_era_help_names_every_era_and_the_default() {
        assert_eq!(
            era_help("Speak", true),
            "Speak:\n2025-11-25 (default), 2025-06-18, 2025-03-26, 2026-07-28 or auto"
        );
        assert!(!era_help("Speak", false).contains("default"));
    }

    #[test]
    fn a_pair_needs_a_name() {
        assert_eq!(
            name_value("X-Tenant=acme=1"),
            Ok(("X-Tenant".into(), "acme=1".into()))
        );
        assert!(name_value("=acme").is_err());
        assert!(name_value("acme").is_err());
    }
}
