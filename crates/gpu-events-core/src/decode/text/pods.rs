//! `kubectl get pods` tables pasted beside events (`NAME READY STATUS RESTARTS AGE`, with
//! `NAMESPACE` for `-A` and `IP NODE ...` for `-o wide`; kubectl's pod printer in
//! `pkg/printers/internalversion/printers.go`). Their rows are not events; they name the Pods
//! the paste is about.

use super::columns::cells;

/// A Pod a `get pods` row lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ListedPod {
    pub(super) namespace: Option<String>,
    pub(super) name: String,
}

/// Whether `line` is a `get pods` header; `Some(true)` when it has a NAMESPACE column.
pub(super) fn header(line: &str) -> Option<bool> {
    let texts: Vec<&str> = cells(line).into_iter().map(|(_, t)| t).collect();
    let at = |i: usize, name: &str| texts.get(i).is_some_and(|t| *t == name);
    if at(0, "NAME") && at(1, "READY") && at(2, "STATUS") {
        Some(false)
    } else if at(0, "NAMESPACE") && at(1, "NAME") && at(2, "READY") && at(3, "STATUS") {
        Some(true)
    } else {
        None
    }
}

/// `1/2`: the READY cell.
fn is_ready(text: &str) -> bool {
    text.split_once('/').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// A `get pods` row (with or without its header): NAME, READY (`0/1`), STATUS, RESTARTS.
pub(super) fn row(line: &str, namespaced: bool) -> Option<ListedPod> {
    let texts: Vec<&str> = cells(line).into_iter().map(|(_, t)| t).collect();
    let offset = usize::from(namespaced);
    let name = texts.get(offset)?;
    let restarts = texts.get(offset + 3)?;
    let restarts_ok = restarts.split_whitespace().next().is_some_and(|r| r.bytes().all(|c| c.is_ascii_digit()));
    (is_ready(texts.get(offset + 1)?) && restarts_ok && !name.contains(' '))
        .then(|| ListedPod { namespace: namespaced.then(|| texts[0].to_owned()), name: (*name).to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_tables_are_told_from_event_rows() {
        assert_eq!(header("NAME          READY   STATUS    RESTARTS   AGE"), Some(false));
        assert_eq!(header("NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE   IP"), Some(true));
        assert_eq!(header("LAST SEEN   TYPE   REASON   OBJECT   MESSAGE"), None);
        let pod = row("usera-2q6ld   0/1     UnexpectedAdmissionError   0          4s", false).unwrap();
        assert_eq!(pod.name, "usera-2q6ld");
        assert_eq!(
            row("ml   train-0   1/1   Running   3 (2m ago)   1h", true).unwrap().namespace.as_deref(),
            Some("ml")
        );
        assert_eq!(row("  Warning  FailedScheduling  10s  default-scheduler  0/1 nodes are available", false), None);
    }
}
