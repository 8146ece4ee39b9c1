//! Patch formats: JSON merge patch (RFC 7386), strategic merge patch (as a merge patch that honours the
//! `$patch` directive on maps; lists are replaced, not merged by key), and JSON patch (RFC 6902).

use serde_json::Value;

/// The patch formats kube-apiserver accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PatchType {
    Merge,
    Strategic,
    Json,
    Apply,
}

impl PatchType {
    pub fn from_content_type(content_type: &str) -> Option<Self> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        match media {
            "application/merge-patch+json" => Some(PatchType::Merge),
            "application/strategic-merge-patch+json" => Some(PatchType::Strategic),
            "application/json-patch+json" => Some(PatchType::Json),
            "application/apply-patch+yaml" | "application/apply-patch+cbor" => Some(PatchType::Apply),
            _ => None,
        }
    }
}

/// RFC 7386.
pub(crate) fn merge(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Default::default());
            }
            let t = target.as_object_mut().expect("object");
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge(t.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        other => *target = other.clone(),
    }
}

/// Strategic merge patch, simplified: a merge patch where `{"$patch": "replace"}` replaces a map,
/// `{"$patch": "delete"}` deletes it, and other `$`-directives are ignored.
pub(crate) fn strategic(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            match p.get("$patch").and_then(Value::as_str) {
                Some("delete") => {
                    *target = Value::Null;
                    return;
                }
                Some("replace") => {
                    let mut replaced = patch.clone();
                    strip_directives(&mut replaced);
                    *target = replaced;
                    return;
                }
                _ => {}
            }
            if !target.is_object() {
                *target = Value::Object(Default::default());
            }
            let t = target.as_object_mut().expect("object");
            for (k, v) in p {
                if k.starts_with('$') {
                    continue;
                }
                if v.is_null() {
                    t.remove(k);
                } else {
                    let entry = t.entry(k.clone()).or_insert(Value::Null);
                    strategic(entry, v);
                    if entry.is_null() {
                        t.remove(k);
                    }
                }
            }
        }
        other => {
            let mut v = other.clone();
            strip_directives(&mut v);
            *target = v;
        }
    }
}

fn strip_directives(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !k.starts_with('$'));
            m.values_mut().for_each(strip_directives);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_directives),
        _ => {}
    }
}

/// Errors of a JSON patch: a malformed document, or an operation that cannot apply.
#[derive(Debug)]
pub(crate) enum JsonPatchError {
    Malformed(String),
    Failed(String),
}

fn unescape_token(t: &str) -> String {
    t.replace("~1", "/").replace("~0", "~")
}

fn tokens(path: &str) -> Result<Vec<String>, JsonPatchError> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    let rest = path.strip_prefix('/').ok_or_else(|| JsonPatchError::Malformed(format!("invalid path {path:?}")))?;
    Ok(rest.split('/').map(unescape_token).collect())
}

fn get<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |cur, t| match cur {
        Value::Object(m) => m.get(t),
        Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

fn parent_mut<'a>(doc: &'a mut Value, path: &[String]) -> Result<&'a mut Value, JsonPatchError> {
    let mut cur = doc;
    for t in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(move |i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| JsonPatchError::Failed(format!("doc is missing path: /{}", path.join("/"))))?;
    }
    Ok(cur)
}

fn add(doc: &mut Value, path: &[String], value: Value) -> Result<(), JsonPatchError> {
    let Some((last, parent)) = path.split_last() else {
        *doc = value;
        return Ok(());
    };
    match parent_mut(doc, parent)? {
        Value::Object(m) => {
            m.insert(last.clone(), value);
            Ok(())
        }
        Value::Array(a) => {
            let i = if last == "-" { a.len() } else { last.parse::<usize>().unwrap_or(usize::MAX) };
            if i > a.len() {
                return Err(JsonPatchError::Failed(format!("index out of bounds: {last}")));
            }
            a.insert(i, value);
            Ok(())
        }
        _ => Err(JsonPatchError::Failed(format!("cannot add to a scalar at {last}"))),
    }
}

fn remove(doc: &mut Value, path: &[String]) -> Result<Value, JsonPatchError> {
    let missing = || JsonPatchError::Failed(format!("doc is missing path: /{}", path.join("/")));
    let (last, parent) = path.split_last().ok_or_else(missing)?;
    match parent_mut(doc, parent)? {
        Value::Object(m) => m.remove(last).ok_or_else(missing),
        Value::Array(a) => {
            let i = last.parse::<usize>().ok().filter(|i| *i < a.len()).ok_or_else(missing)?;
            Ok(a.remove(i))
        }
        _ => Err(missing()),
    }
}

/// RFC 6902.
pub(crate) fn json_patch(doc: &mut Value, ops: &Value) -> Result<(), JsonPatchError> {
    let ops = ops.as_array().ok_or_else(|| JsonPatchError::Malformed("a JSON patch must be an array".into()))?;
    for op in ops {
        let name =
            op.get("op").and_then(Value::as_str).ok_or_else(|| JsonPatchError::Malformed("missing op".into()))?;
        let path = tokens(op.get("path").and_then(Value::as_str).unwrap_or(""))?;
        let value =
            || op.get("value").cloned().ok_or_else(|| JsonPatchError::Malformed(format!("{name}: missing value")));
        let from = || tokens(op.get("from").and_then(Value::as_str).unwrap_or(""));
        match name {
            "add" => add(doc, &path, value()?)?,
            "remove" => {
                remove(doc, &path)?;
            }
            "replace" => {
                remove(doc, &path)?;
                add(doc, &path, value()?)?;
            }
            "move" => {
                let v = remove(doc, &from()?)?;
                add(doc, &path, v)?;
            }
            "copy" => {
                let from = from()?;
                let v = get(doc, &from)
                    .cloned()
                    .ok_or_else(|| JsonPatchError::Failed(format!("doc is missing from path: /{}", from.join("/"))))?;
                add(doc, &path, v)?;
            }
            "test" => {
                if get(doc, &path) != Some(&value()?) {
                    return Err(JsonPatchError::Failed(format!("testing value /{} failed", path.join("/"))));
                }
            }
            other => return Err(JsonPatchError::Malformed(format!("unexpected operation {other:?}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch() {
        let mut doc = json!({"a": {"b": 1, "c": 2}, "d": [1, 2]});
        merge(&mut doc, &json!({"a": {"b": null, "e": 3}, "d": [3]}));
        assert_eq!(doc, json!({"a": {"c": 2, "e": 3}, "d": [3]}));
    }

    #[test]
    fn strategic_patch() {
        let mut doc = json!({"a": {"b": 1}, "c": {"d": 1}});
        strategic(&mut doc, &json!({"a": {"$patch": "replace", "x": 1}, "c": {"$patch": "delete"}, "$retainKeys": []}));
        assert_eq!(doc, json!({"a": {"x": 1}}));
    }

    #[test]
    fn json_patch_ops() {
        let mut doc = json!({"a": [1, 2], "b": {"c": 1}});
        json_patch(
            &mut doc,
            &json!([
                {"op": "add", "path": "/a/-", "value": 3},
                {"op": "replace", "path": "/b/c", "value": 2},
                {"op": "copy", "from": "/b/c", "path": "/d"},
                {"op": "move", "from": "/d", "path": "/e"},
                {"op": "remove", "path": "/a/0"},
                {"op": "test", "path": "/e", "value": 2}
            ]),
        )
        .unwrap();
        assert_eq!(doc, json!({"a": [2, 3], "b": {"c": 2}, "e": 2}));
        assert!(matches!(
            json_patch(&mut doc, &json!([{"op": "test", "path": "/e", "value": 9}])),
            Err(JsonPatchError::Failed(_))
        ));
        assert!(matches!(json_patch(&mut doc, &json!({"op": "add"})), Err(JsonPatchError::Malformed(_))));
    }
}
