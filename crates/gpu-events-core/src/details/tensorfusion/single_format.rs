//! [`single_format!`]: the shared shape of a note struct with one Go format whose verbs are, in
//! order, some of its fields (parse via `captures`, render via `fill`).

/// Declares a TensorFusion note struct with one Go format, or the format part of its `impl`.
///
/// The full form declares the struct (with the usual derives), `FORMAT`, `new` (one parameter per
/// field), `parse` and `render`:
///
/// ```text
/// single_format! {
///     /// Struct docs.
///     pub struct Name {
///         /// Field docs.
///         pub field: String,
///     }
///     /// FORMAT docs.
///     FORMAT = "Go format with %s";
///     /// `new` docs.
///     new;
/// }
/// ```
///
/// The `impl` form leaves the struct and `new` to the caller and declares `FORMAT`, `parse`
/// (which passes the verbs' values to `new`) and `render` (which prints the listed fields):
///
/// ```text
/// single_format! {
///     impl Name {
///         /// FORMAT docs.
///         FORMAT = "Go format with %s";
///         fields(field: String);
///         /// `new` docs.
///         pub fn new(field: &str) -> Self { … }
///     }
/// }
/// ```
///
/// Field types: `String` (`new` takes `&str`), `PodGroupKey` (from and printed as its key text),
/// `u32` (`%d`, read with `go_uint`), `i32` and `i64` (`%d`, read with `go_int`). Both forms take
/// an optional trailing `render_doc = "…";` replacing the default `render` docs.
macro_rules! single_format {
    (@param String) => { &str };
    (@param PodGroupKey) => { &str };
    (@param $ty:ident) => { $ty };

    (@own String, $value:expr) => { $value.to_owned() };
    (@own PodGroupKey, $value:expr) => { super::gang::PodGroupKey::new($value) };
    (@own $ty:ident, $value:expr) => { $value };

    (@read String, $text:expr) => { $text };
    (@read PodGroupKey, $text:expr) => { $text };
    (@read u32, $text:expr) => { super::go_uint($text)? };
    (@read $ty:ident, $text:expr) => { super::go_int($text)? };

    (@arg String, $value:expr) => { $crate::details::template::Arg::Text(&$value) };
    (@arg PodGroupKey, $value:expr) => { $crate::details::template::Arg::Text(&$value.key) };
    (@arg i64, $value:expr) => { $crate::details::template::Arg::Int($value) };
    (@arg $ty:ident, $value:expr) => { $crate::details::template::Arg::Int($value.into()) };

    (@or , $default:literal) => { $default };
    (@or $given:literal, $default:literal) => { $given };

    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $( $(#[$field_attr:meta])* pub $field:ident: $ty:ident, )+
        }
        $(#[$format_doc:meta])*
        FORMAT = $format:expr;
        $(#[$new_doc:meta])*
        new;
        $(render_doc = $render_doc:literal;)?
    ) => {
        $(#[$attr])*
        #[derive(Clone, Debug, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$field_attr])* pub $field: $ty, )+
        }

        single_format! {
            impl $name {
                $(#[$format_doc])*
                FORMAT = $format;
                fields($($field: $ty),+);
                $(#[$new_doc])*
                pub fn new($($field: single_format!(@param $ty)),+) -> Self {
                    $name { $($field: single_format!(@own $ty, $field)),+ }
                }
                $(render_doc = $render_doc;)?
            }
        }
    };

    (
        impl $name:ident {
            $(#[$format_doc:meta])*
            FORMAT = $format:expr;
            fields($($field:ident: $ty:ident),+ $(,)?);
            $(#[$new_doc:meta])*
            pub fn new $params:tt -> Self $body:block
            $(render_doc = $render_doc:literal;)?
        }
    ) => {
        impl $name {
            $(#[$format_doc])*
            pub const FORMAT: &'static str = $format;

            $(#[$new_doc])*
            pub fn new $params -> Self $body

            /// Parse a note of this format.
            pub fn parse(note: &str) -> Option<Self> {
                let [$($field),+] = $crate::details::template::captures(Self::FORMAT, note)?;
                Some(Self::new($(single_format!(@read $ty, $field)),+))
            }

            #[doc = single_format!(@or $($render_doc)?, "The note as TensorFusion writes it.")]
            pub fn render(&self) -> String {
                $crate::details::template::fill(Self::FORMAT, &[$(single_format!(@arg $ty, self.$field)),+])
            }
        }
    };
}
