//! One way to settle what the JSON and YAML readers hand out into records or errors, used by the
//! sequential [`Decoder`](super::Decoder) and the parallel workers alike, so both yield the same.

use std::collections::VecDeque;

use super::DecodeError;
use super::json::JsonPiece;
use super::value::{self, PendingItem};
use crate::EventRecord;

/// What a piece came to.
// The record is handed on at once; boxing it would cost an allocation per event.
#[allow(clippy::large_enum_variant)]
pub(super) enum Settled {
    /// A record, ready (the in-place fast path, or a plain Event object).
    Record(EventRecord),
    /// Items were queued (or nothing was there): take them with [`item`].
    Queued,
    /// Malformed JSON: the input ends here, as it does between documents.
    Fatal(DecodeError),
}

/// Settle one piece: a record now, or its items queued in `pending`.
pub(super) fn piece(piece: JsonPiece, pending: &mut VecDeque<PendingItem>) -> Settled {
    match piece {
        JsonPiece::Record(record) => Settled::Record(record),
        JsonPiece::Item(item) => {
            pending.push_back(PendingItem::raw(item));
            Settled::Queued
        }
        JsonPiece::Document(document, index) => {
            value::expand(document, index, pending);
            Settled::Queued
        }
        JsonPiece::Object(raw) => match value::document(raw, pending) {
            Ok(Some(record)) => Settled::Record(record),
            Ok(None) => Settled::Queued,
            Err(err) => Settled::Fatal(err),
        },
    }
}

/// Settle one queued item: its record, its error, or `None` when it is skipped (an empty slot).
pub(super) fn item(item: PendingItem) -> Option<Result<EventRecord, DecodeError>> {
    item.into_record().transpose()
}
