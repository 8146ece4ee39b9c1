//! The API server's note limit, and the one way this project cuts a note to it, shared by the
//! parser (which flags cut notes) and the recorder (which cuts them).

use std::borrow::Cow;

/// The API server's note limit in **bytes** (`pkg/apis/core/validation/events.go`,
/// `NoteLengthLimit`, applied with Go's `len()`).
pub const NOTE_LIMIT: usize = 1024;

/// What kube-scheduler (`truncateMessage`, pkg/scheduler/framework/runtime) and Kueue
/// (`TruncateEventMessage`) put at the end of a note they cut to [`NOTE_LIMIT`]; a parsed note
/// ending with it near the limit is flagged [`Flag::Truncated`](super::Flag::Truncated).
pub const TRUNCATION_MARKER: &str = " ...";

/// `note` cut to at most [`NOTE_LIMIT`] bytes: unchanged when it fits, else its longest prefix
/// that ends on a UTF-8 character boundary and leaves room for [`TRUNCATION_MARKER`], followed by
/// the marker. The prefix is kept, so a reader still sees what the note is about.
///
/// ```
/// use gpu_events_core::record::{NOTE_LIMIT, truncate_note};
/// let long = "é".repeat(700); // 1400 bytes
/// let cut = truncate_note(&long);
/// assert!(cut.len() <= NOTE_LIMIT && cut.ends_with(" ..."));
/// assert!(long.starts_with(cut.strip_suffix(" ...").unwrap()));
/// ```
pub fn truncate_note(note: &str) -> Cow<'_, str> {
    if note.len() <= NOTE_LIMIT {
        return Cow::Borrowed(note);
    }
    let mut end = NOTE_LIMIT - TRUNCATION_MARKER.len();
    while !note.is_char_boundary(end) {
        end -= 1;
    }
    let mut cut = String::with_capacity(end + TRUNCATION_MARKER.len());
    cut.push_str(&note[..end]);
    cut.push_str(TRUNCATION_MARKER);
    Cow::Owned(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_on_a_character_boundary_within_the_limit() {
        assert!(matches!(truncate_note("short"), Cow::Borrowed("short")));
        let exact = "n".repeat(NOTE_LIMIT);
        assert_eq!(truncate_note(&exact), exact);
        for unit in ["a", "é", "語", "🦀"] {
            let long = unit.repeat(2000);
            let cut = truncate_note(&long);
            assert!(cut.len() <= NOTE_LIMIT, "{unit}: {}", cut.len());
            assert!(cut.len() > NOTE_LIMIT - TRUNCATION_MARKER.len() - unit.len(), "{unit}: {}", cut.len());
            let kept = cut.strip_suffix(TRUNCATION_MARKER).unwrap();
            assert!(long.starts_with(kept));
        }
    }
}
