//! Typed details: the facts inside an event's note, one struct per message grammar.
//!
//! A reason's catalogue row points at its [`Grammar`] (`grammar:` in the reason tables); the
//! record conversion runs it on the note. Grammars are grouped in four families, each a
//! `#[serde(tag = "kind")]` enum, joined here in [`Details`]:
//!
//! * [`TensorFusionDetails`]: every TensorFusion note format, which also *renders* the note
//!   exactly as TensorFusion's Go code writes it ([`Details::render`]).
//! * [`SchedulingDetails`]: kube-scheduler (FitError in all its historical forms), Volcano,
//!   KAI-Scheduler, HAMi.
//! * [`NodeDetails`]: kubelet (admission, eviction, runtime/CDI chains, images, probes, volumes),
//!   node-problem-detector and kube-controller-manager.
//! * [`EcosystemDetails`]: Karpenter, cluster-autoscaler, Kueue, the GPU Operator, Ascend.
//!
//! In JSON, `details` is an object whose `kind` (camelCase) names the grammar, with camelCase
//! fields; a note that does not match its reason's grammar is `{"kind": "unrecognized"}` and the
//! record is flagged `unrecognizedNote`; its text stays in `note`.

mod direction;
#[macro_use]
mod family;

pub mod ecosystem;
pub mod node;
mod quantity;
pub mod scheduling;
pub(crate) mod template;
pub mod tensorfusion;
pub(crate) mod text;

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use direction::ScaleDirection;
pub use ecosystem::EcosystemDetails;
pub use node::NodeDetails;
pub use quantity::{Quantity, parse_value as parse_quantity_value};
pub use scheduling::SchedulingDetails;
pub use tensorfusion::TensorFusionDetails;

/// The typed content of a note. See the [module docs](self).
///
/// `#[non_exhaustive]`: families may be added.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Details {
    /// A TensorFusion note.
    TensorFusion(TensorFusionDetails),
    /// A scheduler note (kube-scheduler, Volcano, KAI, HAMi).
    Scheduling(SchedulingDetails),
    /// A kubelet, node-problem-detector or kube-controller-manager note.
    Node(NodeDetails),
    /// A Karpenter, cluster-autoscaler, Kueue, GPU Operator or Ascend note.
    Ecosystem(EcosystemDetails),
    /// The reason has a grammar but the note does not match it: `{"kind": "unrecognized"}`.
    Unrecognized,
}

/// What a grammar reads: the note (after the aggregation prefix is removed) and the fields that
/// disambiguate some formats.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Note<'a> {
    /// The note (core/v1 `message`).
    pub text: &'a str,
    /// `action`, when present (TensorFusion NodeExpansionCheck is told apart by it).
    pub action: Option<&'a str>,
    /// `reportingController`, when present.
    pub reporting_controller: Option<&'a str>,
}

impl<'a> Note<'a> {
    /// A note with no action or reporter.
    pub fn new(text: &'a str) -> Self {
        Note { text, action: None, reporting_controller: None }
    }

    /// The same note with an action.
    pub fn with_action(mut self, action: Option<&'a str>) -> Self {
        self.action = action;
        self
    }

    /// The same note with a reporting controller.
    pub fn with_reporting_controller(mut self, controller: Option<&'a str>) -> Self {
        self.reporting_controller = controller;
        self
    }
}

/// A message grammar: the `kind` values it produces and its parser. Catalogue rows point at one.
#[non_exhaustive]
pub struct Grammar {
    /// The `details.kind` values this grammar produces (camelCase), for docs and schema.
    pub kinds: &'static [&'static str],
    parse: fn(&Note<'_>) -> Option<Details>,
}

impl Grammar {
    /// A grammar producing `kinds` with `parse` (which returns `None` when the note does not match).
    pub(crate) const fn new(kinds: &'static [&'static str], parse: fn(&Note<'_>) -> Option<Details>) -> Self {
        Grammar { kinds, parse }
    }

    /// Parse a note; [`Details::Unrecognized`] when it does not match.
    pub fn parse(&self, note: &Note<'_>) -> Details {
        (self.parse)(note).unwrap_or(Details::Unrecognized)
    }
}

impl std::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grammar").field("kinds", &self.kinds).finish_non_exhaustive()
    }
}

/// A type the typed details of a note can be read as: every grammar's struct ([`FitError`](scheduling::FitError),
/// [`GangMembersWaiting`](tensorfusion::GangMembersWaiting), ...) and every family enum
/// ([`SchedulingDetails`], ...). [`Details::get`] and [`EventRecord::details_as`](crate::EventRecord::details_as)
/// use it, so reaching one grammar's fields takes one call instead of a match per level.
///
/// Implemented by the declarations of the families (`details_family!`, `tensorfusion_details!`), once per
/// type; a type that is not a grammar's struct has no impl.
pub trait DetailsType {
    /// `Some` when `details` holds a value of this type.
    fn from_details(details: &Details) -> Option<&Self>;
}

impl Details {
    /// The details as `T` (a grammar's struct or a family enum), or `None` when they are something else.
    ///
    /// ```
    /// use gpu_events_core::details::{Details, SchedulingDetails, scheduling::FitError, tensorfusion::GangMembersWaiting};
    /// let details = Details::from(GangMembersWaiting::new(2, 4));
    /// assert_eq!(details.get::<GangMembersWaiting>().map(|g| g.ready), Some(2));
    /// assert!(details.get::<FitError>().is_none());
    /// assert!(details.get::<SchedulingDetails>().is_none());
    /// ```
    pub fn get<T: DetailsType + ?Sized>(&self) -> Option<&T> {
        T::from_details(self)
    }

    /// The `kind` of the details as in JSON (`gangProgress`, `fitError`, ..., `unrecognized`).
    pub fn kind(&self) -> &'static str {
        match self {
            Details::TensorFusion(d) => d.kind(),
            Details::Scheduling(d) => d.kind(),
            Details::Node(d) => d.kind(),
            Details::Ecosystem(d) => d.kind(),
            Details::Unrecognized => "unrecognized",
        }
    }

    /// The note exactly as TensorFusion's Go code writes it, for TensorFusion details;
    /// `None` for other families and for [`Details::Unrecognized`].
    pub fn render(&self) -> Option<String> {
        match self {
            Details::TensorFusion(details) => Some(details.render()),
            _ => None,
        }
    }
}

impl Serialize for Details {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Details::TensorFusion(d) => d.serialize(serializer),
            Details::Scheduling(d) => d.serialize(serializer),
            Details::Node(d) => d.serialize(serializer),
            Details::Ecosystem(d) => d.serialize(serializer),
            Details::Unrecognized => {
                use serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("kind", "unrecognized")?;
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Details {
    /// Reads back what [`Serialize`] wrote: the family is found from `kind`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let kind = value.get("kind").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        if kind == "unrecognized" {
            return Ok(Details::Unrecognized);
        }
        if let Ok(d) = TensorFusionDetails::deserialize(&value) {
            return Ok(Details::TensorFusion(d));
        }
        if let Ok(d) = SchedulingDetails::deserialize(&value) {
            return Ok(Details::Scheduling(d));
        }
        if let Ok(d) = NodeDetails::deserialize(&value) {
            return Ok(Details::Node(d));
        }
        if let Ok(d) = EcosystemDetails::deserialize(&value) {
            return Ok(Details::Ecosystem(d));
        }
        Err(D::Error::custom(format_args!("unknown or malformed details of kind {kind:?}")))
    }
}

impl schemars::JsonSchema for Details {
    fn schema_name() -> Cow<'static, str> {
        "Details".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let families = [
            generator.subschema_for::<TensorFusionDetails>(),
            generator.subschema_for::<SchedulingDetails>(),
            generator.subschema_for::<NodeDetails>(),
            generator.subschema_for::<EcosystemDetails>(),
            schemars::json_schema!({
                "type": "object",
                "description": "The note did not match its reason's grammar; the text is in `note`.",
                "properties": { "kind": { "const": "unrecognized" } },
                "required": ["kind"]
            }),
        ];
        schemars::json_schema!({
            "description": "Typed fields of the note; `kind` names the grammar, other fields are camelCase.",
            "anyOf": families
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In every family, each `kind` is its variant's name in camelCase and its serde tag.
    #[test]
    fn each_kind_is_its_variant_in_camel_case_and_its_json_tag() {
        for (variants, kinds) in [
            (TensorFusionDetails::VARIANTS, TensorFusionDetails::KINDS),
            (SchedulingDetails::VARIANTS, SchedulingDetails::KINDS),
            (NodeDetails::VARIANTS, NodeDetails::KINDS),
            (EcosystemDetails::VARIANTS, EcosystemDetails::KINDS),
        ] {
            assert_eq!(variants.len(), kinds.len());
            for (variant, kind) in variants.iter().zip(kinds) {
                let camel = variant[..1].to_lowercase() + &variant[1..];
                assert_eq!(&camel, kind);
            }
        }
        let details = Details::from(tensorfusion::GangMembersWaiting::new(2, 4));
        assert_eq!(serde_json::to_value(&details).unwrap()["kind"], details.kind());
        let unit = Details::Scheduling(SchedulingDetails::NoNodesAvailable);
        assert_eq!(serde_json::to_value(&unit).unwrap()["kind"], SchedulingDetails::NO_NODES_AVAILABLE);
        assert_eq!(unit.kind(), SchedulingDetails::NO_NODES_AVAILABLE);
    }
}
