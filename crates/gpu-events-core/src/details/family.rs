//! [`details_family!`]: the one declaration of a details family and of its single-kind grammars.
//!
//! A grammar is declared where its family lists it: one row names the variant, the struct, its
//! JSON `kind` and (when the grammar is the struct's own `parse(&str)`) the `Grammar` static the
//! catalogue row points at. Everything else is derived from that row: the enum variant and its
//! serde tag, `kind()`, `KINDS`, the struct's `KIND` constant (which hand-written grammars that
//! produce several kinds list instead of strings), the `From` conversions into the family and into
//! [`Details`](super::Details), and the static itself. A macro rather than a trait with provided
//! items because the enum, its tag strings and the statics are items, which only a macro can
//! write from one list. The struct and its parser stay ordinary code in the family's submodule.
//!
//! # Adding a grammar
//!
//! 1. The struct and its `parse(&str) -> Option<Self>` in the submodule of the reason's source
//!    (`ecosystem/karpenter.rs` for a Karpenter reason), with unit tests there; the shared helpers
//!    of the family are in its `text.rs`, the Go-format ones in `details/template.rs`.
//! 2. One row in the family's `mod.rs` (`ecosystem/mod.rs`), beside its source's rows:
//!    `NodeRepairBlocked(NodeRepairBlocked) => "nodeRepairBlocked", grammar NODE_REPAIR_BLOCKED;`.
//!    The kind is the variant's name in camelCase (a unit test checks it); prefix the source
//!    (`KarpenterEvicted`) only when another family already has that name.
//! 3. The catalogue row (`reason/<source>.rs`; a row without a grammar has no `grammar:` line) gets
//!    `grammar: Some(&crate::details::ecosystem::NODE_REPAIR_BLOCKED),`.
//! 4. A sample note in `tests/grammars.rs`'s `SAMPLES` (its tests fail, naming the kind, when an
//!    ecosystem or scheduler kind has none, when a kind is declared twice, or when no catalogue
//!    row produces it), and the parser in the "never panics" proptest of the family's
//!    `tests/cases_*.rs` file.
//! 5. Regenerate `docs/reasons.md`: `cargo run -p gpu-events-cli -- reasons -o markdown >
//!    docs/reasons.md` (a test fails while it is stale).

/// Declares a details family enum and its grammars. Row shapes:
///
/// ```text
/// details_family! {
///     /// Enum docs.
///     pub enum NodeDetails in Node;
///     /// Variant docs.
///     PulledImage(PulledImage) => "pulledImage", grammar PULLED;   // static PULLED parses with PulledImage::parse
///     /// Variant docs.
///     RuntimeFailure(RuntimeFailure) => "runtimeFailure";          // parsed by hand-written grammars
///     unit:
///     /// Variant docs.
///     NoNodesAvailable as NO_NODES_AVAILABLE => "noNodesAvailable"; // a variant without fields
/// }
/// ```
macro_rules! details_family {
    (
        $(#[doc = $doc:literal])*
        pub enum $Family:ident in $Outer:ident;
        $(
            $(#[doc = $vdoc:literal])+
            $Variant:ident($Type:ident) => $kind:literal $(, grammar $GRAMMAR:ident)?;
        )+
        $(
            unit:
            $(
                $(#[doc = $udoc:literal])+
                $Unit:ident as $UNIT_KIND:ident => $ukind:literal;
            )+
        )?
    ) => {
        $(#[doc = $doc])*
        ///
        /// `#[non_exhaustive]`: variants may be added.
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(tag = "kind")]
        #[non_exhaustive]
        pub enum $Family {
            $(
                $(#[doc = $vdoc])+
                #[serde(rename = $kind)]
                $Variant($Type),
            )+
            $($(
                $(#[doc = $udoc])+
                #[serde(rename = $ukind)]
                $Unit,
            )+)?
        }

        impl $crate::details::DetailsType for $Family {
            fn from_details(details: &$crate::details::Details) -> Option<&Self> {
                match details {
                    $crate::details::Details::$Outer(details) => Some(details),
                    _ => None,
                }
            }
        }

        impl $Family {
            /// The `kind` as in JSON.
            pub fn kind(&self) -> &'static str {
                match self {
                    $($Family::$Variant(_) => $kind,)+
                    $($($Family::$Unit => $ukind,)+)?
                }
            }

            /// Every `kind` of this family, in declaration order.
            pub const KINDS: &'static [&'static str] = &[$($kind,)+ $($($ukind,)+)?];

            $($(
                #[doc = concat!("The `kind` of [`", stringify!($Family), "::", stringify!($Unit), "`]: `", $ukind, "`.")]
                pub const $UNIT_KIND: &'static str = $ukind;
            )+)?

            /// The variant names, in the order of [`Self::KINDS`] (to check each `kind` is its variant's name in
            /// camelCase).
            #[cfg(test)]
            pub(crate) const VARIANTS: &'static [&'static str] = &[$(stringify!($Variant),)+ $($(stringify!($Unit),)+)?];
        }

        $(
            impl $Type {
                #[doc = concat!("The `kind` of this details type in JSON: `", $kind, "`.")]
                pub const KIND: &'static str = $kind;
            }

            impl From<$Type> for $Family {
                fn from(details: $Type) -> Self {
                    $Family::$Variant(details)
                }
            }

            impl $crate::details::DetailsType for $Type {
                fn from_details(details: &$crate::details::Details) -> Option<&Self> {
                    match details {
                        $crate::details::Details::$Outer($Family::$Variant(details)) => Some(details),
                        _ => None,
                    }
                }
            }

            impl From<$Type> for $crate::details::Details {
                fn from(details: $Type) -> Self {
                    $crate::details::Details::$Outer($Family::$Variant(details))
                }
            }

            $(
                #[doc = concat!("Grammar producing `", $kind, "`: [`", stringify!($Type), "::parse`] on the note.")]
                pub(crate) static $GRAMMAR: $crate::details::Grammar =
                    $crate::details::Grammar::new(&[$kind], |note: &$crate::details::Note<'_>| {
                        <$Type>::parse(note.text).map(<$crate::details::Details>::from)
                    });
            )?
        )+
    };
}
