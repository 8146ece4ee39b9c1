//! The raw pieces the JSON reader cuts out of a stream (a List element, a top-level object) before they
//! are parsed: a leaf the JSON reader and the item converter share.

use super::api::Api;

/// Elements larger than this are skipped with an item error instead of being buffered.
pub(super) const MAX_ITEM_BYTES: usize = 32 * 1024 * 1024;

/// The bytes of one element and where it was.
pub(super) struct RawItem {
    /// The element's JSON text (empty when it was too large, see `oversized`).
    pub(super) bytes: Vec<u8>,
    /// 1-based line where the element starts.
    pub(super) line: usize,
    /// 1-based column where the element starts.
    pub(super) column: usize,
    /// 1-based index of the top-level document.
    pub(super) document: usize,
    /// 0-based index in the array.
    pub(super) index: usize,
    /// The Event API the enclosing List's `apiVersion` names, when it came before `items`.
    pub(super) list_api: Option<Api>,
    /// The element was larger than [`MAX_ITEM_BYTES`] and was skipped.
    pub(super) oversized: bool,
}

/// A top-level object that is not a List, as its text.
pub(super) struct RawDocument {
    /// The object's JSON text, exactly as read (empty when `oversized`).
    pub(super) bytes: Vec<u8>,
    /// 1-based line where the object starts.
    pub(super) line: usize,
    /// 1-based column where the object starts.
    pub(super) column: usize,
    /// 1-based index of the top-level document.
    pub(super) document: usize,
    /// The object was larger than [`MAX_ITEM_BYTES`]; it was read past, not kept.
    pub(super) oversized: bool,
}
