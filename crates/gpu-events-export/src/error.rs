//! [`ConfigError`]: why a part of the exporter's configuration (redaction rules, routes, alert
//! rules) cannot be used. Every variant names the rule or route at fault and says what to fix.

/// A configuration that cannot work, found when the exporter is built (never per record).
///
/// `#[non_exhaustive]`: adding a variant is not a breaking change.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A redaction rule's `pattern` is not a valid regular expression (Rust `regex` syntax).
    #[error("redaction rule {rule:?}: invalid pattern: {source}")]
    InvalidPattern {
        /// The rule's `name`.
        rule: String,
        /// What the regex compiler said (with the position in the pattern).
        #[source]
        source: Box<regex::Error>,
    },
    /// A redaction rule's `pattern` matches the empty string, so it would insert its replacement
    /// between every two characters of every note.
    #[error(
        "redaction rule {rule:?}: pattern {pattern:?} matches the empty string; make it match at least one character"
    )]
    EmptyMatch {
        /// The rule's `name`.
        rule: String,
        /// The pattern.
        pattern: String,
    },
    /// Two rules, routes or sinks share a name; names appear in records, alerts and errors, so
    /// they must be unique.
    #[error("{what} name {name:?} is used twice; give each {what} its own name")]
    DuplicateName {
        /// `redaction rule`, `route`, `alert rule` or `sink`.
        what: &'static str,
        /// The repeated name.
        name: String,
    },
    /// A name is empty.
    #[error("a {what} has an empty name; give it one")]
    EmptyName {
        /// `redaction rule`, `route` or `alert rule`.
        what: &'static str,
    },
    /// A route or alert rule names sinks that are not configured.
    #[error("{what} {name:?} names unknown sink(s) {unknown:?}; configured sinks are {known:?}")]
    UnknownSink {
        /// `route` or `alert rule`.
        what: &'static str,
        /// The route's or rule's name.
        name: String,
        /// The sink names that are not configured (sorted, unique).
        unknown: Vec<String>,
        /// The configured sink names.
        known: Vec<String>,
    },
    /// A `match` block holds a value that can never match: an unknown group or cause id, an
    /// event type in the wrong case, or a details key that is not a JSON pointer.
    #[error("{what} {name:?}: match.{field}: {problem}")]
    InvalidMatch {
        /// `route` or `alert rule`.
        what: &'static str,
        /// The route's or rule's name.
        name: String,
        /// `groups`, `causes`, `types`, `details`, ...
        field: &'static str,
        /// What is wrong and what is accepted instead.
        problem: String,
    },
    /// An alert rule's settings do not fit together (a silence rule with a `match`, a pattern rule
    /// without `for`, a zero `resolveAfter`, ...).
    #[error("alert rule {rule:?}: {problem}")]
    InvalidAlertRule {
        /// The rule's `name`.
        rule: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
}
