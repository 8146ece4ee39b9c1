//! The request log: what clients sent, in arrival order, and how the server answered.

use serde_json::Value;

/// One request received by the server.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRequest {
    /// Arrival number, from 0, across the server's life (not reset by [`clear_requests`](crate::ApiServer::clear_requests)).
    pub seq: u64,
    /// HTTP method (`"GET"`, `"POST"`, `"PATCH"`, ...).
    pub method: String,
    /// URL path, without the query.
    pub path: String,
    /// Decoded query parameters, in order.
    pub query: Vec<(String, String)>,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body parsed as JSON, when it is JSON.
    pub body: Option<Value>,
    /// The body as received.
    pub raw_body: Vec<u8>,
    /// The HTTP status answered; `None` while the request is being handled, or when its connection was dropped.
    pub status: Option<u16>,
    /// Whether an injected [`Fault`](crate::Fault) decided the answer (a delay alone does not count).
    pub faulted: bool,
}

impl RecordedRequest {
    /// The first value of a query parameter.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        query_param(&self.query, name)
    }

    /// Whether this is a watch (`?watch=true` or a `/watch/` path).
    pub fn is_watch(&self) -> bool {
        is_watch(&self.path, &self.query)
    }

    /// Whether this request asks to change state (POST, PUT, PATCH, DELETE).
    pub fn is_write(&self) -> bool {
        is_write(&self.method)
    }

    /// Whether the server answered with a 2xx status.
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// Decodes `application/x-www-form-urlencoded` query text.
pub(crate) fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first value of a query parameter (for [`RecordedRequest`] and the counter's `SentRequest`).
pub(crate) fn query_param<'q>(query: &'q [(String, String)], name: &str) -> Option<&'q str> {
    query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// Whether a request is a watch (`?watch=true` or a `/watch/` path).
pub(crate) fn is_watch(path: &str, query: &[(String, String)]) -> bool {
    matches!(query_param(query, "watch"), Some("true" | "1")) || path.contains("/watch/")
}

/// Whether a method changes state (POST, PUT, PATCH, DELETE).
pub(crate) fn is_write(method: &str) -> bool {
    matches!(method, "POST" | "PUT" | "PATCH" | "DELETE")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query() {
        let q = parse_query("fieldSelector=involvedObject.name%3Dllama-0%2Creason%3DFailed&watch=true&x=a+b&e=%");
        assert_eq!(q[0], ("fieldSelector".into(), "involvedObject.name=llama-0,reason=Failed".into()));
        assert_eq!(q[1], ("watch".into(), "true".into()));
        assert_eq!(q[2], ("x".into(), "a b".into()));
        assert_eq!(q[3], ("e".into(), "%".into()));
    }
}
