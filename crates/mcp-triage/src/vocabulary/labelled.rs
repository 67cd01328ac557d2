//! [`Labelled`]: what every `labelled_enum!` is, so views read any identifier's id and words alike.

/// What every `labelled_enum!` is: an identifier with its words for people (the views' badges read
/// both through this, so no surface spells either).
pub(crate) trait Labelled: Copy {
    /// The stable identifier.
    fn id(self) -> &'static str;
    /// Its words for people.
    fn words(self) -> String;
    /// Parses the identifier.
    fn from_id(text: &str) -> Option<Self>;
}
