//! Splitting table lines into cells: kubectl pads columns with spaces (tabwriter), so a cell
//! boundary is a run of two or more spaces or a tab; single spaces belong to the cell.

/// The cells of a line with their byte offsets: `(start, text)`.
pub(crate) fn cells(line: &str) -> Vec<(usize, &str)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let gap =
            bytes[i] == b'\t' || (bytes[i] == b' ' && bytes.get(i + 1).is_some_and(|b| *b == b' ' || *b == b'\t'));
        if gap {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
                i += 1;
            }
            continue;
        }
        if start.is_none() && bytes[i] != b' ' {
            start = Some(i);
        }
        i += 1;
    }
    if let Some(s) = start {
        out.push((s, line[s..].trim_end()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_runs_of_spaces_and_tabs_only() {
        let line =
            "  Warning  FailedScheduling  4m43s (x93 over 24m)  default-scheduler  0/2 nodes are available: 1 x.";
        let texts: Vec<&str> = cells(line).into_iter().map(|(_, t)| t).collect();
        assert_eq!(
            texts,
            [
                "Warning",
                "FailedScheduling",
                "4m43s (x93 over 24m)",
                "default-scheduler",
                "0/2 nodes are available: 1 x."
            ]
        );
        assert_eq!(cells(" Warning FailedScheduling")[0], (1, "Warning FailedScheduling"));
        assert_eq!(cells("a\tb  ").len(), 2);
        assert!(cells("   ").is_empty());
        assert_eq!(cells("é  ü"), [(0, "é"), (4, "ü")]);
    }
}
