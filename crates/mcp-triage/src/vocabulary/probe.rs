//! The one probe vocabulary: the four tool calls (A to D), the checks a run sends as requests of
//! their own (the connect request without the token, the GET), and the Origin check, judged from
//! the run's other answers. Steps, intents, causes and spec verdicts all name a probe by these.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::vocabulary::labelled::Labelled;

labelled_enum! {
    /// The four tool-call probes: one vocabulary for steps, intents, plans, verdicts, the page and
    /// exports.
    ProbeName {
        /// Unknown tool.
        A = "A",
        /// Schema-invalid arguments.
        B = "B",
        /// Backend throws.
        C = "C",
        /// Success.
        D = "D",
    }
}

labelled_enum! {
    /// The transport checks a run sends as requests of their own.
    #[non_exhaustive]
    Check {
        /// The connect request again, without the token.
        NoToken = "no_token",
        /// GET on the endpoint.
        Get = "get",
    }
}

/// The Origin check's identifier: it sends nothing of its own.
const ORIGIN: &str = "origin";

/// What a verdict can be about, and of which kind it is: a tool call, a check sent as a request,
/// or the Origin check (judged from the run's other answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Probe {
    /// Probe A, B, C or D.
    Call(ProbeName),
    /// A check sent as a request of its own.
    Check(Check),
    /// Whether the server validates the Origin header of a browser's requests.
    Origin,
}

impl Probe {
    /// Every probe and check, in card order.
    pub const ALL: &'static [Probe] = &[
        Probe::Call(ProbeName::A),
        Probe::Call(ProbeName::B),
        Probe::Call(ProbeName::C),
        Probe::Call(ProbeName::D),
        Probe::Check(Check::NoToken),
        Probe::Check(Check::Get),
        Probe::Origin,
    ];

    /// The stable identifier: `A`..`D`, `no_token`, `get`, `origin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Probe::Call(p) => p.as_str(),
            Probe::Check(c) => c.as_str(),
            Probe::Origin => ORIGIN,
        }
    }

    /// Parses the stable identifier.
    pub fn parse(text: &str) -> Option<Probe> {
        Probe::ALL.iter().copied().find(|p| p.as_str() == text)
    }

    /// Reads an intent as people type it: `a`..`d` in either case, or a check's identifier.
    pub fn parse_intent(text: &str) -> Option<Probe> {
        Probe::parse(text).or_else(|| Probe::parse(&text.to_ascii_uppercase()))
    }

    /// The identifier for people (its words without underscores).
    pub fn label(self) -> String {
        self.as_str().replace('_', " ")
    }
}

impl Labelled for Probe {
    fn id(self) -> &'static str {
        self.as_str()
    }
    fn words(self) -> String {
        self.label()
    }
    fn from_id(text: &str) -> Option<Probe> {
        Probe::parse(text)
    }
}

impl Serialize for Probe {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Probe {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Probe, D::Error> {
        let text = String::deserialize(deserializer)?;
        Probe::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown probe {text:?}")))
    }
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::Probe;

    #[test]
    fn every_probe_reads_back_from_its_identifier_and_serializes_as_it() {
        let ids: Vec<&str> = Probe::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(ids, ["A", "B", "C", "D", "no_token", "get", "origin"]);
        for p in Probe::ALL {
            assert_eq!(Probe::parse(p.as_str()), Some(*p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
            assert_eq!(
                serde_json::from_value::<Probe>(p.as_str().into()).unwrap(),
                *p
            );
        }
        assert_eq!(Probe::parse_intent("b"), Some(Probe::ALL[1]));
        assert_eq!(Probe::parse("connect"), None);
        assert!(serde_json::from_value::<Probe>("connect".into()).is_err());
    }
}
