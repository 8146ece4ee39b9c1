//! `explain --html FILE`: one self-contained page (inline CSS and SVG, no script, no fonts or
//! anything else fetched) with, per diagnosed object, its timeline and its diagnosis, and a
//! counts-by-reason bar chart of the whole input. Every text from the input is HTML-escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use chrono::{DateTime, Utc};
use gpu_events_core::EventRecord;
use gpu_events_core::diagnose::Diagnosis;

use crate::timeline::{Cell, Timeline};

/// Bar colour of Warning reasons in the chart (the browser test looks for it).
pub const BAR_WARNING: &str = "#d9480f";
/// Bar colour of the other reasons in the chart.
pub const BAR_NORMAL: &str = "#1c7ed6";
/// Timeline marks: Warning, and the others (not the chart's colours, so each picture is its own).
const MARK_WARNING: &str = "#b35c00";
const MARK_NORMAL: &str = "#2f9e44";
/// The chart shows this many reasons; the rest are summed up under it.
pub const CHART_ROWS: usize = 20;
/// A timeline shows this many rows; the rest are summed up under it.
const TIMELINE_ROWS: usize = 40;

/// Chart geometry (px): labels, then bars from `BAR_X`, at most `BAR_MAX` long.
const BAR_X: u32 = 300;
const BAR_MAX: u32 = 480;
const BAR_ROW: u32 = 24;
const BAR_HEIGHT: u32 = 16;
/// Timeline geometry (px): labels, then the axis from `AXIS_X`, `AXIS_WIDTH` long.
const AXIS_X: f64 = 330.0;
const AXIS_WIDTH: f64 = 420.0;
const LINE_ROW: u32 = 22;

const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0; padding: 16px 24px;
       color: #1f2328; background: #ffffff; max-width: 1000px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 6px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
p.meta { color: #59636e; margin: 0 0 16px; font-size: 13px; }
section { border: 1px solid #d1d9e0; border-radius: 6px; padding: 12px 16px; margin: 0 0 16px; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font-size: 12px; fill: #1f2328; }
svg text.dim { fill: #59636e; }
.cause { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; }
.confidence-High { color: #1a7f37; } .confidence-Medium { color: #9a6700; } .confidence-Low { color: #cf222e; }
table { border-collapse: collapse; font-size: 12px; width: 100%; }
td, th { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; }
th { color: #59636e; font-weight: 600; white-space: nowrap; }
td.note { word-break: break-word; }
.Warning { color: #9a3412; }
ul.steps { margin: 0; padding-left: 18px; }
ul.steps code, td code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; word-break: break-all; }
p.untimed { font-size: 12px; color: #59636e; margin: 4px 0 0; }
";

/// What the page is made of.
pub struct Page<'a> {
    /// Where the events came from (`events.json`, `standard input`, `the bundled sample`, a cluster).
    pub source: &'a str,
    /// Every record read (the chart counts them all).
    pub records: &'a [EventRecord],
    /// The diagnoses, each with its object's records (the timeline's).
    pub objects: Vec<(&'a Diagnosis, Vec<&'a EventRecord>)>,
    /// The reference time for ages (LAST SEEN).
    pub now: DateTime<Utc>,
}

/// `&`, `<`, `>`, `"` and `'` as entities; control characters as spaces.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// One bar of the chart: a reason of a type and its occurrences.
#[derive(Debug, PartialEq, Eq)]
pub struct Bar {
    /// `Warning`, `Normal`, or another type as written.
    pub type_: String,
    /// The reason.
    pub reason: String,
    /// The events' counts summed.
    pub count: u64,
}

/// Occurrences by reason (and type), most first, then by reason.
pub fn bars(records: &[EventRecord]) -> Vec<Bar> {
    let mut counts: BTreeMap<(String, String), u64> = BTreeMap::new();
    for record in records {
        let type_ = record.type_.as_ref().map_or_else(String::new, ToString::to_string);
        *counts.entry((record.reason.to_string(), type_)).or_default() += u64::from(record.count.max(1));
    }
    let mut bars: Vec<Bar> = counts.into_iter().map(|((reason, type_), count)| Bar { type_, reason, count }).collect();
    bars.sort_by(|a, b| {
        b.count.cmp(&a.count).then_with(|| a.reason.cmp(&b.reason)).then_with(|| a.type_.cmp(&b.type_))
    });
    bars
}

/// The length of a bar of `count` when the longest is `max` (at least one pixel).
pub fn bar_length(count: u64, max: u64) -> u32 {
    if max == 0 {
        return 0;
    }
    ((count as f64 / max as f64 * f64::from(BAR_MAX)).round() as u32).max(1)
}

/// Write the page.
pub fn write(page: &Page<'_>, out: &mut impl Write) -> io::Result<()> {
    let mut html = String::new();
    let objects = page.objects.len();
    let title = match objects {
        0 => "gpu-events: nothing stuck".to_owned(),
        1 => "gpu-events: 1 object needs attention".to_owned(),
        n => format!("gpu-events: {n} objects need attention"),
    };
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let occurrences: u64 = page.records.iter().map(|r| u64::from(r.count.max(1))).sum();
    let _ = writeln!(
        html,
        "<h1>{}</h1>\n<p class=\"meta\">{} events ({occurrences} occurrences) from {}; times in UTC; ages relative to {}</p>",
        escape(&title),
        page.records.len(),
        escape(page.source),
        page.now.format("%Y-%m-%d %H:%M:%S UTC")
    );
    chart(&mut html, &bars(page.records));
    if page.objects.is_empty() {
        html.push_str("<section id=\"objects\"><p>No object with Warning events or a stuck signal.</p></section>\n");
    }
    for (index, (diagnosis, records)) in page.objects.iter().enumerate() {
        object(&mut html, index, diagnosis, records, page.now);
    }
    html.push_str("</body>\n</html>\n");
    out.write_all(html.as_bytes())
}

fn chart(html: &mut String, bars: &[Bar]) {
    let shown = &bars[..bars.len().min(CHART_ROWS)];
    let max = shown.first().map_or(0, |b| b.count);
    let height = BAR_ROW * shown.len().max(1) as u32 + 8;
    let width = BAR_X + BAR_MAX + 80;
    let _ = writeln!(
        html,
        "<section id=\"reasons\">\n<h2>Occurrences by reason</h2>\n\
         <svg id=\"reason-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"occurrences by reason\">"
    );
    if shown.is_empty() {
        let _ = writeln!(html, "<text x=\"0\" y=\"16\" class=\"dim\">no events</text>");
    }
    for (i, bar) in shown.iter().enumerate() {
        let y = BAR_ROW * i as u32 + 4;
        let length = bar_length(bar.count, max);
        let colour = if bar.type_ == "Warning" { BAR_WARNING } else { BAR_NORMAL };
        let label = if bar.type_.is_empty() { bar.reason.clone() } else { format!("{} {}", bar.type_, bar.reason) };
        let text_y = y + BAR_HEIGHT - 3;
        let _ = writeln!(
            html,
            "<g class=\"bar-row\"><title>{label}: {count}</title>\
             <text x=\"{lx}\" y=\"{text_y}\" text-anchor=\"end\">{label_cut}</text>\
             <rect class=\"bar\" x=\"{BAR_X}\" y=\"{y}\" width=\"{length}\" height=\"{BAR_HEIGHT}\" fill=\"{colour}\" \
             shape-rendering=\"crispEdges\" data-count=\"{count}\"/>\
             <text x=\"{cx}\" y=\"{text_y}\">{count}</text></g>",
            label = escape(&label),
            count = bar.count,
            lx = BAR_X - 8,
            label_cut = escape(&cut(&label, 40)),
            cx = BAR_X + length + 6,
        );
    }
    let _ = writeln!(html, "</svg>");
    if bars.len() > shown.len() {
        let rest = &bars[shown.len()..];
        let count: u64 = rest.iter().map(|b| b.count).sum();
        let _ = writeln!(html, "<p class=\"untimed\">… {} more reason(s), {count} occurrence(s)</p>", rest.len());
    }
    let _ = writeln!(html, "</section>");
}

fn object(html: &mut String, index: usize, d: &Diagnosis, records: &[&EventRecord], now: DateTime<Utc>) {
    let kind = d.kind().map_or_else(|| "object".to_owned(), |k| k.to_lowercase());
    let name = match d.object.name.as_deref() {
        Some(name) => format!("{kind}/{name}"),
        None => format!("{kind} (not named in the input)"),
    };
    let namespace = d.object.namespace.as_deref().map(|ns| format!(" -n {ns}")).unwrap_or_default();
    let confidence = format!("{:?}", d.confidence);
    let _ = writeln!(
        html,
        "<section class=\"object\" id=\"object-{index}\">\n<h2>{}{}</h2>\n\
         <p class=\"verdict\"><span class=\"phase\">{}</span> — <span class=\"cause\">{}</span> \
         (<span class=\"confidence-{confidence}\">{confidence} confidence</span>): {}</p>",
        escape(&name),
        escape(&namespace),
        escape(&crate::explain::phase_name(d)),
        escape(&d.cause.to_string()),
        escape(d.cause.summary()),
    );
    timeline(html, &Timeline::of(records.iter().copied()));
    html.push_str("<h3>Evidence</h3>\n");
    evidence_table(html, &d.evidence, now);
    if !d.also_possible.is_empty() {
        html.push_str("<h3>Also possible</h3>\n<ul class=\"also\">\n");
        for alternative in &d.also_possible {
            let _ = writeln!(
                html,
                "<li><span class=\"cause\">{}</span> ({:?} confidence): {}</li>",
                escape(&alternative.cause.to_string()),
                alternative.confidence,
                escape(alternative.cause.summary())
            );
        }
        html.push_str("</ul>\n");
    }
    html.push_str("<h3>Next steps</h3>\n<ul class=\"steps\">\n");
    for step in &d.next_steps {
        let _ = writeln!(html, "<li><code>{}</code></li>", escape(step));
    }
    html.push_str("</ul>\n</section>\n");
}

fn evidence_table(html: &mut String, evidence: &[EventRecord], now: DateTime<Utc>) {
    html.push_str(
        "<table class=\"evidence\"><tr><th>LAST SEEN</th><th>TYPE</th><th>REASON</th><th>MESSAGE</th></tr>\n",
    );
    for record in evidence {
        let row = crate::explain::row(record, now);
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td class=\"note\">{}</td></tr>",
            escape(&row[0]),
            escape(&row[1]),
            escape(&row[1]),
            escape(&row[2]),
            escape(&row[5])
        );
    }
    html.push_str("</table>\n");
}

fn timeline(html: &mut String, timeline: &Timeline) {
    let shown = &timeline.rows[..timeline.rows.len().min(TIMELINE_ROWS)];
    if let Some(caption) = timeline.caption() {
        let rows = shown.len() as u32;
        let height = LINE_ROW * rows + 30;
        let width = AXIS_X + AXIS_WIDTH + 170.0;
        let _ = writeln!(
            html,
            "<h3>Timeline <span class=\"meta\">{}</span></h3>\n\
             <svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"events over time\">",
            escape(&caption)
        );
        for (i, row) in shown.iter().enumerate() {
            let cy = LINE_ROW * i as u32 + LINE_ROW / 2 + 2;
            let colour = if row.is_warning() { MARK_WARNING } else { MARK_NORMAL };
            let label = format!("{} {}", row.type_, row.reason);
            let times = timeline.times(row);
            let _ = write!(
                html,
                "<g class=\"timeline-row\"><title>{label}: {count} occurrence(s) in {events} event(s), {times}</title>\
                 <text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label_cut} ×{count}</text>\
                 <line x1=\"{AXIS_X}\" y1=\"{cy}\" x2=\"{ax2}\" y2=\"{cy}\" stroke=\"#d1d9e0\"/>",
                label = escape(label.trim()),
                count = row.count,
                events = row.events,
                times = escape(&times),
                lx = AXIS_X - 10.0,
                ty = cy + 4,
                label_cut = escape(&cut(label.trim(), 40)),
                ax2 = AXIS_X + AXIS_WIDTH,
            );
            // One column per pixel: a row of thousands of events draws at most one mark per pixel.
            let cells = timeline.cells(row, AXIS_WIDTH as usize + 1);
            let mut x = 0;
            while x < cells.len() {
                if cells[x] == Cell::Empty {
                    x += 1;
                    continue;
                }
                let start = x;
                while x + 1 < cells.len() && cells[x + 1] != Cell::Empty {
                    x += 1;
                }
                if x > start {
                    let _ = write!(
                        html,
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"6\" fill=\"{colour}\"/>",
                        AXIS_X + start as f64,
                        cy - 3,
                        x - start
                    );
                }
                for (point, _) in cells.iter().enumerate().take(x + 1).skip(start).filter(|(_, c)| **c == Cell::Point) {
                    let _ = write!(
                        html,
                        "<circle cx=\"{}\" cy=\"{cy}\" r=\"4\" fill=\"{colour}\"/>",
                        AXIS_X + point as f64
                    );
                }
                x += 1;
            }
            let _ = writeln!(
                html,
                "<text x=\"{}\" y=\"{}\" class=\"dim\">{}</text></g>",
                AXIS_X + AXIS_WIDTH + 10.0,
                cy + 4,
                escape(&times)
            );
        }
        if let Some((start, end)) = timeline.range().filter(|(start, end)| start != end) {
            let y = LINE_ROW * rows + 20;
            let _ = writeln!(
                html,
                "<text x=\"{AXIS_X}\" y=\"{y}\" class=\"dim\">{}</text>\
                 <text x=\"{}\" y=\"{y}\" class=\"dim\" text-anchor=\"end\">{}</text>",
                escape(&timeline.stamp(start)),
                AXIS_X + AXIS_WIDTH,
                escape(&timeline.stamp(end))
            );
        }
        html.push_str("</svg>\n");
        if timeline.rows.len() > shown.len() {
            let _ = writeln!(html, "<p class=\"untimed\">… {} more reason(s)</p>", timeline.rows.len() - shown.len());
        }
    }
    let list = |rows: &[crate::timeline::Row]| {
        rows.iter().map(|r| format!("{} {} ×{}", r.type_, r.reason, r.count).trim().to_owned()).collect::<Vec<_>>()
    };
    if !timeline.untimed.is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"untimed\">No time in the input for: {}</p>",
            escape(&list(&timeline.untimed).join(", "))
        );
    }
    if !timeline.status.is_empty() {
        let _ = writeln!(html, "<p class=\"untimed\">Status now: {}</p>", escape(&list(&timeline.status).join(", ")));
    }
}

/// `text` cut to `width` characters, the last one `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(reason: &str, type_: &str, count: u32, note: &str) -> EventRecord {
        let mut record = EventRecord::builder(reason).note(note).build();
        record.type_ = Some(type_.parse().unwrap());
        record.count = count;
        record.regarding.kind = Some("Pod".into());
        record.regarding.namespace = Some("ml".into());
        record.regarding.name = Some("train-0".into());
        record.last_timestamp = Some("2026-11-30T05:00:00Z".parse().unwrap());
        record
    }

    #[test]
    fn escaping_leaves_no_markup_from_the_input() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"y\"\u{1b}"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot; "
        );
        let records = vec![
            event("BackOff", "Warning", 3, "<script>alert(1)</script> Back-off restarting failed container"),
            event("<img src=x onerror=alert(2)>", "Warning", 1, "x"),
        ];
        let diagnoses = gpu_events_core::diagnose::diagnose(&records);
        assert!(!diagnoses.is_empty());
        let page = Page {
            source: "<b>file</b>",
            records: &records,
            objects: diagnoses.iter().map(|d| (d, records.iter().collect())).collect(),
            now: "2026-11-30T06:00:00Z".parse().unwrap(),
        };
        let mut out = Vec::new();
        write(&page, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<b>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the note is shown, escaped");
        assert!(html.contains("&lt;img src=x onerror=alert(2)&gt;"), "the reason too");
        // Self-contained: nothing to fetch.
        let without_svg_namespace = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        for external in ["http://", "https://", "@import", "url(", "<link", "<img", "<iframe", "@font-face"] {
            assert!(!without_svg_namespace.contains(external), "{external}");
        }
    }

    #[test]
    fn a_row_of_many_events_draws_at_most_a_mark_per_pixel() {
        let records: Vec<EventRecord> = (0..5000)
            .map(|i| {
                let mut record = event("BackOff", "Warning", 1, "Back-off restarting failed container");
                record.last_timestamp = Some(record.last_timestamp.unwrap() + chrono::TimeDelta::seconds(i));
                record
            })
            .collect();
        let mut html = String::new();
        timeline(&mut html, &Timeline::of(&records));
        let pixels = AXIS_WIDTH as usize + 1;
        let (circles, rects) = (html.matches("<circle").count(), html.matches("<rect").count());
        assert!(circles <= pixels && rects <= pixels / 2 + 1, "{circles} circles, {rects} rects");
        assert!(html.contains("×5000"), "the count is all of them");
    }

    #[test]
    fn bars_are_ordered_by_count_and_scaled_to_the_longest() {
        let records = vec![
            event("Pulled", "Normal", 10, ""),
            event("FailedScheduling", "Warning", 30, ""),
            event("FailedScheduling", "Warning", 10, ""),
            event("BackOff", "Warning", 20, ""),
            event("Scheduled", "Normal", 0, ""),
        ];
        let bars = bars(&records);
        let got: Vec<(&str, u64)> = bars.iter().map(|b| (b.reason.as_str(), b.count)).collect();
        assert_eq!(got, [("FailedScheduling", 40), ("BackOff", 20), ("Pulled", 10), ("Scheduled", 1)]);
        assert_eq!(bar_length(40, 40), BAR_MAX);
        assert_eq!(bar_length(20, 40), BAR_MAX / 2);
        assert_eq!(bar_length(0, 40), 1);
    }
}
