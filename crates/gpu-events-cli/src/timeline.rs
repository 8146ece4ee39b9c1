//! One object's events on a compact time axis: a row per reason, oldest first, each event
//! drawn from its first to its last seen with its count, so the order of what happened reads
//! at a glance (`explain --diagnose` on a terminal, and the `--html` page).
//!
//! Events without a timestamp (a pasted table without ages) are listed as such, never placed;
//! a pasted status (`fromStatus`) is the object now, listed apart too.

use std::collections::BTreeMap;
use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::record::Flag;

use crate::age;

/// Rows of the text timeline; the others are summed up in one line.
pub const MAX_TEXT_ROWS: usize = 12;
/// The widest a text timeline line gets (indent, labels, axis, times).
pub const MAX_TEXT_WIDTH: usize = 100;
/// The axis of the text timeline: at most this many columns, and at least the smaller one.
const AXIS_MAX: usize = 40;
const AXIS_MIN: usize = 12;
/// Reason labels longer than this are cut with `…`.
const REASON_MAX: usize = 28;

/// One reason of one type (`Warning FailedScheduling`): its events, their counts and times.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `Warning`, `Normal`, another type as written, or empty when the input gave none.
    pub type_: String,
    /// The reason as the input spelled it.
    pub reason: String,
    /// Occurrences: the events' counts summed (an event without a count is one).
    pub count: u64,
    /// How many events (records) the row holds.
    pub events: usize,
    /// When the first of them was first seen (`None` for rows without timestamps).
    pub first: Option<DateTime<Utc>>,
    /// When the last of them was last seen.
    pub last: Option<DateTime<Utc>>,
    /// Each event's (first seen, last seen), oldest first.
    pub spans: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    /// Some time of the row was counted back from a relative age (`4m43s`): approximate.
    pub approximate: bool,
}

impl Row {
    fn new(record: &EventRecord) -> Row {
        Row {
            type_: record.type_.as_ref().map_or_else(String::new, ToString::to_string),
            reason: record.reason.to_string(),
            count: 0,
            events: 0,
            first: None,
            last: None,
            spans: Vec::new(),
            approximate: false,
        }
    }

    /// Whether the row is of Warning events.
    pub fn is_warning(&self) -> bool {
        self.type_ == "Warning"
    }

    fn add(&mut self, record: &EventRecord, span: Option<(DateTime<Utc>, DateTime<Utc>)>) {
        self.count += u64::from(record.count.max(1));
        self.events += 1;
        self.approximate |= record.has_flag(Flag::ApproximateTime);
        if let Some((first, last)) = span {
            self.first = Some(self.first.map_or(first, |t| t.min(first)));
            self.last = Some(self.last.map_or(last, |t| t.max(last)));
            self.spans.push((first, last));
        }
    }
}

/// An object's events laid out for drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// Rows with times, by first seen (then last seen, then reason).
    pub rows: Vec<Row>,
    /// Rows of events the input gave no time for, by reason.
    pub untimed: Vec<Row>,
    /// What a pasted status says the object is now (`fromStatus`), by reason.
    pub status: Vec<Row>,
}

/// A record's (first seen, last seen): one of them stands for both when only one is known.
fn span(record: &EventRecord) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let (first, last) = match (record.first_timestamp, record.last_timestamp) {
        (Some(first), Some(last)) => (first.min(last), first.max(last)),
        (Some(one), None) | (None, Some(one)) => (one, one),
        (None, None) => return None,
    };
    Some((first, last))
}

impl Timeline {
    /// Lay out `records` (one object's).
    pub fn of<'a>(records: impl IntoIterator<Item = &'a EventRecord>) -> Timeline {
        let mut timed: BTreeMap<(String, String), Row> = BTreeMap::new();
        let mut untimed: BTreeMap<(String, String), Row> = BTreeMap::new();
        let mut status: BTreeMap<(String, String), Row> = BTreeMap::new();
        for record in records {
            let row = Row::new(record);
            let key = (row.reason.clone(), row.type_.clone());
            let span = span(record);
            let bucket = if record.has_flag(Flag::FromStatus) {
                &mut status
            } else if span.is_some() {
                &mut timed
            } else {
                &mut untimed
            };
            let span = if record.has_flag(Flag::FromStatus) { None } else { span };
            bucket.entry(key).or_insert(row).add(record, span);
        }
        let mut rows: Vec<Row> = timed.into_values().collect();
        for row in &mut rows {
            row.spans.sort();
        }
        rows.sort_by(|a, b| (a.first, a.last, &a.reason).cmp(&(b.first, b.last, &b.reason)));
        Timeline { rows, untimed: untimed.into_values().collect(), status: status.into_values().collect() }
    }

    /// The axis: the first time seen and the last.
    pub fn range(&self) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        let start = self.rows.iter().filter_map(|r| r.first).min()?;
        let end = self.rows.iter().filter_map(|r| r.last).max()?;
        Some((start, end))
    }

    /// Where `at` falls on the axis, from 0 (the first time) to 1 (the last); 0 when the axis
    /// is one instant.
    pub fn fraction(&self, at: DateTime<Utc>) -> f64 {
        let Some((start, end)) = self.range() else { return 0.0 };
        let span = (end - start).num_milliseconds();
        if span <= 0 {
            return 0.0;
        }
        ((at - start).num_milliseconds() as f64 / span as f64).clamp(0.0, 1.0)
    }

    /// The column of `at` on an axis `width` columns wide.
    pub fn column(&self, at: DateTime<Utc>, width: usize) -> usize {
        (self.fraction(at) * width.saturating_sub(1) as f64).round() as usize
    }

    /// A row drawn on an axis `width` columns wide.
    pub fn cells(&self, row: &Row, width: usize) -> Vec<Cell> {
        let mut cells = vec![Cell::Empty; width];
        for &(first, last) in &row.spans {
            let (a, b) = (self.column(first, width), self.column(last, width));
            for cell in &mut cells[a..=b] {
                if *cell == Cell::Empty {
                    *cell = Cell::Span;
                }
            }
            cells[a] = Cell::Point;
            cells[b] = Cell::Point;
        }
        cells
    }

    /// Whether any placed time is approximate.
    pub fn approximate(&self) -> bool {
        self.rows.iter().any(|r| r.approximate)
    }

    /// Whether the axis stays within one UTC day (times then print without the date).
    fn one_day(&self) -> bool {
        self.range().is_none_or(|(start, end)| start.date_naive() == end.date_naive())
    }

    /// A time as the timeline prints it: `06:04:10`, or `11-30 06:04` across days.
    pub fn stamp(&self, at: DateTime<Utc>) -> String {
        if self.one_day() { at.format("%H:%M:%S").to_string() } else { at.format("%m-%d %H:%M").to_string() }
    }

    /// A row's times: `05:00:00 → 05:50:00`, or the one time; `~` when approximate.
    pub fn times(&self, row: &Row) -> String {
        let tilde = if row.approximate { "~" } else { "" };
        match (row.first, row.last) {
            (Some(first), Some(last)) if first != last => {
                format!("{tilde}{} → {tilde}{}", self.stamp(first), self.stamp(last))
            }
            (Some(one), _) | (None, Some(one)) => format!("{tilde}{}", self.stamp(one)),
            (None, None) => String::new(),
        }
    }

    /// The axis's caption: its ends, in UTC with the date, and its length.
    pub fn caption(&self) -> Option<String> {
        let (start, end) = self.range()?;
        let tilde = if self.approximate() { "~" } else { "" };
        if start == end {
            return Some(format!("{tilde}{} UTC (one instant)", start.format("%Y-%m-%d %H:%M:%S")));
        }
        let end_text = if start.date_naive() == end.date_naive() {
            end.format("%H:%M:%S").to_string()
        } else {
            end.format("%Y-%m-%d %H:%M:%S").to_string()
        };
        Some(format!(
            "{tilde}{} → {tilde}{end_text} UTC ({})",
            start.format("%Y-%m-%d %H:%M:%S"),
            age::human(end - start)
        ))
    }

    /// The text timeline, indented two spaces, at most `max_width` columns (and
    /// [`MAX_TEXT_WIDTH`]) wide and [`MAX_TEXT_ROWS`] rows.
    pub fn write_text(&self, out: &mut impl Write, max_width: usize, colour: bool) -> io::Result<()> {
        let paint = |style: Style, text: &str| if colour { format!("{style}{text}{style:#}") } else { text.to_owned() };
        let dim = Style::new().dimmed();
        if let Some(caption) = self.caption() {
            let approximate = if self.approximate() { ", ~ from an age" } else { "" };
            writeln!(out, "  timeline (● event, ━ first to last seen{approximate}): {caption}")?;
        }
        let shown = &self.rows[..self.rows.len().min(MAX_TEXT_ROWS)];
        let all = shown.iter().chain(&self.untimed).chain(&self.status);
        let type_width = all.clone().map(|r| r.type_.chars().count().min(8)).max().unwrap_or(0);
        let reason_width = all.clone().map(|r| r.reason.chars().count().min(REASON_MAX)).max().unwrap_or(0);
        let count_width = all.clone().map(|r| r.count.to_string().len() + 1).max().unwrap_or(0);
        let times_width = shown.iter().map(|r| self.times(r).chars().count()).max().unwrap_or(0);
        // indent, type, reason, count, the axis between its two bars, times; two spaces apart.
        let fixed = 4 + type_width + 2 + reason_width + 2 + count_width + 2 + 2 + 2 + times_width;
        let axis = max_width.min(MAX_TEXT_WIDTH).saturating_sub(fixed).clamp(AXIS_MIN, AXIS_MAX);
        let label = |row: &Row| {
            let type_ = fit(&row.type_, 8);
            let style = if row.is_warning() { AnsiColor::Yellow.on_default() } else { Style::new() };
            let pad = " ".repeat(type_width - type_.chars().count());
            let count = format!("x{}", row.count);
            format!(
                "{}{pad}  {:<reason_width$}  {count:>count_width$}",
                paint(style, &type_),
                fit(&row.reason, REASON_MAX)
            )
        };
        for row in shown {
            let mark = if row.is_warning() { AnsiColor::Yellow.on_default() } else { AnsiColor::Green.on_default() };
            // Runs of the same style are painted once.
            let mut line = String::new();
            let mut run = (Style::new(), String::new());
            for cell in self.cells(row, axis) {
                let (style, glyph) = match cell {
                    Cell::Empty => (dim, '·'),
                    Cell::Span => (mark, '━'),
                    Cell::Point => (mark, '●'),
                };
                if style != run.0 && !run.1.is_empty() {
                    line.push_str(&paint(run.0, &std::mem::take(&mut run.1)));
                }
                run.0 = style;
                run.1.push(glyph);
            }
            line.push_str(&paint(run.0, &run.1));
            writeln!(out, "    {}  │{line}│  {}", label(row), self.times(row))?;
        }
        if self.rows.len() > shown.len() {
            let rest = &self.rows[shown.len()..];
            let count: u64 = rest.iter().map(|r| r.count).sum();
            writeln!(out, "    … {} more reason(s), {count} occurrence(s), later on the axis", rest.len())?;
        }
        for row in &self.untimed {
            writeln!(out, "    {}  (no time in the input)", label(row))?;
        }
        for row in &self.status {
            writeln!(out, "    {}  (status now)", label(row))?;
        }
        Ok(())
    }
}

/// What one column of a row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No event.
    Empty,
    /// Between an event's first and last seen.
    Span,
    /// An event's first or last seen (or both).
    Point,
}

/// `text` cut to `width` characters, the last one `…` when cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        format!("2026-11-30T{s}Z").parse().unwrap()
    }

    fn event(reason: &str, type_: &str, count: u32, first: Option<&str>, last: Option<&str>) -> EventRecord {
        let mut record = EventRecord::builder(reason).build();
        record.type_ = Some(type_.parse().unwrap());
        record.count = count;
        record.first_timestamp = first.map(at);
        record.last_timestamp = last.map(at);
        record
    }

    /// A Pod that waited for a GPU, was scheduled, then crash-looped; one event without a time.
    fn stuck_pod() -> Vec<EventRecord> {
        vec![
            event("BackOff", "Warning", 30, Some("05:20:00"), Some("05:55:00")),
            event("FailedScheduling", "Warning", 12, Some("05:00:00"), Some("05:10:00")),
            event("Scheduled", "Normal", 1, None, Some("05:11:00")),
            event("Pulled", "Normal", 3, Some("05:12:00"), Some("05:40:00")),
            event("Pulled", "Normal", 1, None, Some("05:12:30")),
            event("FailedMount", "Warning", 2, None, None),
        ]
    }

    #[test]
    fn rows_are_in_the_order_things_happened_with_their_counts() {
        let timeline = Timeline::of(&stuck_pod());
        let order: Vec<(&str, u64, usize)> =
            timeline.rows.iter().map(|r| (r.reason.as_str(), r.count, r.events)).collect();
        assert_eq!(
            order,
            [("FailedScheduling", 12, 1), ("Scheduled", 1, 1), ("Pulled", 4, 2), ("BackOff", 30, 1)],
            "by first seen, counts summed over a reason's events"
        );
        assert_eq!(timeline.range(), Some((at("05:00:00"), at("05:55:00"))));
        let pulled = &timeline.rows[2];
        assert_eq!((pulled.first, pulled.last), (Some(at("05:12:00")), Some(at("05:40:00"))));
        // The event without a time is listed apart, not placed anywhere.
        assert_eq!(timeline.untimed.len(), 1);
        assert_eq!((timeline.untimed[0].reason.as_str(), timeline.untimed[0].count), ("FailedMount", 2));
        assert!(timeline.untimed[0].first.is_none() && timeline.untimed[0].spans.is_empty());
    }

    #[test]
    fn times_scale_linearly_onto_the_axis() {
        let timeline = Timeline::of(&stuck_pod());
        // 05:00 → 05:55 on 56 columns: one column a minute.
        assert_eq!(timeline.column(at("05:00:00"), 56), 0);
        assert_eq!(timeline.column(at("05:11:00"), 56), 11);
        assert_eq!(timeline.column(at("05:55:00"), 56), 55);
        assert!((timeline.fraction(at("05:27:30")) - 0.5).abs() < 1e-9);
        let cells = timeline.cells(&timeline.rows[0], 56);
        assert_eq!(cells[0], Cell::Point);
        assert!(cells[1..10].iter().all(|c| *c == Cell::Span));
        assert_eq!(cells[10], Cell::Point);
        assert!(cells[11..].iter().all(|c| *c == Cell::Empty));
        // A row with one instant is a point; an axis of one instant puts everything at 0.
        assert_eq!(timeline.cells(&timeline.rows[1], 56).iter().filter(|c| **c != Cell::Empty).count(), 1);
        let one = Timeline::of(&[event("BackOff", "Warning", 2, Some("05:00:00"), Some("05:00:00"))]);
        assert_eq!(one.column(at("05:00:00"), 40), 0);
        assert_eq!(one.caption().as_deref(), Some("2026-11-30 05:00:00 UTC (one instant)"));
        assert_eq!(one.cells(&one.rows[0], 40)[0], Cell::Point);
    }

    #[test]
    fn status_and_approximate_times_are_said_so() {
        let mut status = event("ImagePullBackOff", "Warning", 1, None, Some("05:00:00"));
        status.flags.push(Flag::FromStatus);
        let mut aged = event("BackOff", "Warning", 4, Some("05:01:00"), Some("05:04:00"));
        aged.flags.push(Flag::ApproximateTime);
        let timeline = Timeline::of(&[status, aged]);
        assert_eq!(timeline.rows.len(), 1, "a status is the object now, not a point on the axis");
        assert_eq!(timeline.status[0].reason, "ImagePullBackOff");
        assert_eq!(timeline.times(&timeline.rows[0]), "~05:01:00 → ~05:04:00");
        let mut out = Vec::new();
        timeline.write_text(&mut out, 100, false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("ImagePullBackOff") && text.contains("(status now)"), "{text}");
        assert!(text.contains("~ from an age"), "{text}");
    }

    #[test]
    fn widths_are_bounded_and_colour_is_only_asked_for() {
        let mut records = stuck_pod();
        records.push(event(&"VeryLongReason".repeat(8), "Warning", 100_000, Some("04:00:00"), Some("06:00:00")));
        for i in 0..20 {
            records.push(event(&format!("Reason{i:02}"), "Normal", 1, Some("05:30:00"), Some("05:30:00")));
        }
        let timeline = Timeline::of(&records);
        for max_width in [60, 100, 400] {
            let mut out = Vec::new();
            timeline.write_text(&mut out, max_width, false).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(!text.contains('\x1b'), "plain unless asked: {text}");
            let rows: Vec<&str> = text.lines().filter(|l| l.contains('│')).collect();
            assert_eq!(rows.len(), MAX_TEXT_ROWS, "{text}");
            assert!(text.contains("… 13 more reason(s), 13 occurrence(s)"), "{text}");
            for line in text.lines() {
                let width = line.chars().count();
                assert!(width <= max_width.clamp(AXIS_MIN + 80, MAX_TEXT_WIDTH), "{width}: {line}");
            }
        }
        let mut out = Vec::new();
        timeline.write_text(&mut out, 100, true).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("\x1b[33m"), "Warning marks in yellow");
    }

    #[test]
    fn the_text_timeline_reads_as_a_person_expects() {
        let mut out = Vec::new();
        Timeline::of(&stuck_pod()).write_text(&mut out, 100, false).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
