//! The two declaration macros of the catalogue. `reason_table!` turns one table of rows into a
//! per-source enum with its static metadata; `sources!` (in `mod.rs`) joins the per-source enums.

/// The wire string of a row: the explicit literal when given, else the variant name.
macro_rules! wire {
    ($variant:ident) => {
        stringify!($variant)
    };
    ($variant:ident, $wire:literal) => {
        $wire
    };
}

/// Declares one source's reasons. Each row is the single declaration of a reason: the enum
/// variant, its docs, its wire string and every piece of metadata come from it.
///
/// Row shape: `Variant [= "Wire"] { meaning: "...", reference: "...", group: Group, field: value, ... }`,
/// where the optional fields are the remaining fields of [`ReasonInfo`](super::ReasonInfo).
macro_rules! reason_table {
    (
        $(#[doc = $enum_doc:literal])*
        pub enum $Enum:ident in $Source:ident;
        $(
            $Variant:ident $(= $wire:literal)? {
                meaning: $meaning:literal,
                reference: $reference:literal,
                group: $group:ident,
                $($field:ident : $value:expr),* $(,)?
            }
        )+
    ) => {
        $(#[doc = $enum_doc])*
        ///
        /// `#[non_exhaustive]`: adding a reason is not a breaking change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $Enum {
            $(
                #[doc = $meaning]
                #[doc = ""]
                #[doc = concat!("Wire string `", wire!($Variant $(, $wire)?), "`; source: ", $reference, ".")]
                $Variant,
            )+
        }

        impl $Enum {
            /// Every entry of this table, in declaration order.
            pub const ALL: &'static [$Enum] = &[$($Enum::$Variant),+];

            /// The catalogue entry of this reason.
            pub fn info(self) -> &'static $crate::reason::ReasonInfo {
                static TABLE: [$crate::reason::ReasonInfo; $Enum::ALL.len()] = [
                    $(
                        $crate::reason::ReasonInfo {
                            reason: $crate::reason::Reason::$Source($Enum::$Variant),
                            id: concat!(stringify!($Source), "::", stringify!($Variant)),
                            wire: wire!($Variant $(, $wire)?),
                            source: $crate::reason::Source::$Source,
                            group: $crate::reason::Group::$group,
                            meaning: $meaning,
                            reference: $reference,
                            $($field: $value,)*
                            ..$crate::reason::ReasonInfo::TEMPLATE
                        },
                    )+
                ];
                &TABLE[self as usize]
            }

            /// The wire string (for a family such as `OutOf<resource>`, the pattern).
            pub fn as_str(self) -> &'static str {
                self.info().wire
            }
        }

        impl From<$Enum> for $crate::reason::Reason {
            fn from(reason: $Enum) -> Self {
                $crate::reason::Reason::$Source(reason)
            }
        }

        impl std::fmt::Display for $Enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }
    };
}
