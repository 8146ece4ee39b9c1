//! The `type` field of an Event: `Normal`, `Warning`, or a value newer servers may add.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The type of an Event, as in `core/v1` `Event.type` and `events.k8s.io/v1` `Event.type`.
///
/// Kubernetes documents the field as "Normal, Warning, new types could be added in the future"
/// (k8s-openapi 0.29 `api::events::v1::Event::type_`), so any other string is kept in
/// [`EventType::Other`] and survives a round trip unchanged.
///
/// `Display`, [`EventType::as_str`] and serde all use the wire string.
/// This enum is `#[non_exhaustive]`: adding a variant is not a breaking change.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EventType {
    /// `Normal`: nothing needs attention.
    Normal,
    /// `Warning`: something may need attention.
    Warning,
    /// Any other string, kept verbatim (never `"Normal"` or `"Warning"`).
    Other(OtherEventType),
}

/// A type string that is neither `Normal` nor `Warning`, kept byte for byte.
///
/// Only [`EventType::from_str`] builds it, so it never holds a known type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OtherEventType(Box<str>);

impl OtherEventType {
    /// The string as received.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl EventType {
    /// The wire string: `"Normal"`, `"Warning"` or the unknown value as received.
    pub fn as_str(&self) -> &str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
            EventType::Other(other) => other.as_str(),
        }
    }

    /// Parse a wire string. Never fails: unknown strings become [`EventType::Other`].
    pub fn parse(s: &str) -> Self {
        match s {
            "Normal" => EventType::Normal,
            "Warning" => EventType::Warning,
            other => EventType::Other(OtherEventType(other.into())),
        }
    }
}

impl FromStr for EventType {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(EventType::parse(s))
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl AsRef<str> for EventType {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for EventType {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for EventType {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// k8s-openapi's form of `type` (`Option<String>` on both Event APIs): `event.type_ = Some(EventType::Warning.into())`.
impl From<EventType> for String {
    fn from(event_type: EventType) -> Self {
        match event_type {
            EventType::Other(other) => other.0.into(),
            known => known.as_str().to_owned(),
        }
    }
}

/// From a wire string, as [`EventType::parse`] (never fails).
impl From<&str> for EventType {
    fn from(s: &str) -> Self {
        EventType::parse(s)
    }
}

/// From k8s-openapi's `String`, as [`EventType::parse`] (never fails).
impl From<String> for EventType {
    fn from(s: String) -> Self {
        EventType::parse(&s)
    }
}

impl Serialize for EventType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EventType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Ok(EventType::parse(&s))
    }
}

impl schemars::JsonSchema for EventType {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EventType".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // A plain string, never an enum: newer servers may add types.
        schemars::json_schema!({
            "type": "string",
            "description": "Event type: \"Normal\", \"Warning\", or a newer value kept verbatim.",
            "examples": ["Normal", "Warning"]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_types_round_trip() {
        for s in ["Normal", "Warning", "Critical", "", "normal"] {
            let t: EventType = s.parse().unwrap();
            assert_eq!(t.as_str(), s);
            assert_eq!(t.to_string(), s);
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(serde_json::from_str::<EventType>(&json).unwrap(), t);
        }
        assert_eq!(EventType::parse("Warning"), EventType::Warning);
        assert!(matches!(EventType::parse("normal"), EventType::Other(_)));
    }

    #[test]
    fn converts_to_and_from_k8s_openapis_string() {
        use k8s_openapi::api::events::v1::Event;
        for s in ["Normal", "Warning", "Critical"] {
            let event = Event { type_: Some(EventType::parse(s).into()), ..Event::default() };
            assert_eq!(event.type_.as_deref(), Some(s));
            let back: EventType = event.type_.clone().unwrap().into();
            assert_eq!(back, EventType::parse(s));
            assert_eq!(EventType::from(s), back);
        }
        assert_eq!(EventType::from("Warning".to_owned()), EventType::Warning);
        assert!(matches!(EventType::from("warning"), EventType::Other(_)));
    }

    #[test]
    fn display_pads_for_tables() {
        assert_eq!(format!("{:<9}|", EventType::Normal), "Normal   |");
    }
}
