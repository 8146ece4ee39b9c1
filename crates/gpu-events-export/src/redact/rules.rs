//! The built-in rules: one table, [`BUILTINS`], in the order the rules run. Each entry says what
//! it matches, why that is a secret (or identifying) and how it is told from the facts GPU events
//! are made of, with an example that a unit test runs through the engine.
//!
//! Patterns use `[ \t]` rather than `\s` and never match a line break (except the rules with a
//! [`Trigger::Multiline`]: the PEM rules, `env-value` and `argument-list-secret`, which run over the
//! whole text): the engine runs every other rule line by line, on the lines its
//! prefilter picked (see `prefilter.rs`). `(?-u:\b)` is an ASCII word boundary (it keeps the fast
//! regex engines usable on non-ASCII text).

use regex::Captures;

/// Refines a regex match: given the haystack and the match's byte range, the range to replace,
/// or `None` to keep the text (for checks a regex cannot express, like "not followed by `.5`").
pub(crate) type Check = fn(&str, usize, usize) -> Option<(usize, usize)>;

/// Decides from a match's capture groups whether it is a secret (`false` keeps the text).
pub(crate) type Accept = fn(&Captures<'_>) -> bool;

/// What makes the prefilter pick a line for a rule: a necessary condition for a match, cheap
/// to find (see `prefilter.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Trigger {
    /// One of these literals (ASCII case-insensitive) occurs on the line.
    Literals(&'static [&'static str]),
    /// An `@` occurs on the line.
    At,
    /// One of these lower-case words, after a non-word character (or at the start), then `-` and
    /// a hex digit (`i-0123...`, `eni-0a1b...`): found in the walk over `-` the address shapes
    /// make anyway, so these prefixes cost the literal screen nothing.
    DashedId(&'static [&'static str]),
    /// A run of digits and dots with three dots (a dotted quad candidate).
    DottedQuad,
    /// A run of hex digits, colons and dots with `::` or six colons (an IPv6 candidate).
    Ipv6,
    /// Five colons in a run of hex digits and colons, or six pairs of hex digits joined by dashes
    /// (a MAC address candidate).
    Mac,
    /// The rule runs over the whole text (it matches across lines) when this literal occurs.
    Multiline(&'static str),
}

/// A built-in rule as documented: what `gpu-events redact --list-rules` prints and the README
/// lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuiltinRule {
    /// The rule's name, as counted by `gpu-events redact` and recorded in
    /// [`ExportRecord::redactions`](crate::ExportRecord::redactions).
    pub name: &'static str,
    /// The family it belongs to (`cloud-credentials`, `platform-tokens`, ...).
    pub family: &'static str,
    /// What it matches.
    pub matches: &'static str,
    /// Why it is redacted, and how it is told from facts (names, UIDs, quantities).
    pub why: &'static str,
    /// An input it redacts.
    pub example: &'static str,
    /// What that input becomes.
    pub redacted: &'static str,
}

/// A built-in rule: its documentation and how it runs.
pub(crate) struct Builtin {
    pub info: BuiltinRule,
    pub pattern: &'static str,
    pub replacement: &'static str,
    pub check: Option<Check>,
    pub accept: Option<Accept>,
    pub trigger: Trigger,
}

/// The characters of a bare secret value (query parameter, `key=value`): up to whitespace, a
/// quote, a backslash (JSON escapes such as `\u0026` and `\"`), `&`, `,`, `;`, `#`, `<`, `>` or a
/// bracket.
macro_rules! value {
    // A `:` may be inside a value but never ends one: `...&X-Amz-Signature=ab12: 403 Forbidden`
    // keeps its sentence colon.
    () => {
        r#"[^\s"'\\&,;#<>{}\[\]()]*[^\s"'\\&,;#<>{}\[\]():]"#
    };
}

/// The characters of an unquoted key-value secret outside a query string: as `value!`, but
/// `&` and `#` are part of it (`DB_PASSWORD=Tr0ub4dor&3`, `password=Pg$Pass#2024`); only in a
/// query string do they end a value.
macro_rules! kv_value {
    () => {
        r#"[^\s"'\\,;<>{}\[\]()&#](?:[^\s"'\\,;<>{}\[\]()]*[^\s"'\\,;<>{}\[\]():])?"#
    };
}

/// The characters of a key-value secret's key before its keyword: dotted, dashed or underscored
/// segments (`AWS_`, `db-`, `spring.datasource.`), a camelCase head (`db` in `dbPassword`) and
/// a leading `_` (npm's `_authToken`).
macro_rules! key_head {
    () => {
        r"_?(?:[a-z0-9]+[_.\-])*[a-z0-9]*"
    };
}

/// A key-value secret's pattern for the key keywords `$kw` (a regex alternation), in the order
/// the alternatives are preferred:
/// 1. `qp`/`qpv`: a query parameter (after `?`, `&`, `#`, `\u0026`, `&amp;`): the value ends at
///    `&` or `#`;
/// 2. `lp`/`lv`: a whole `key: value` line (YAML, `kubectl describe`): the rest of the line,
///    spaces included, but a ` # comment` and trailing blanks (`lc`, kept);
/// 3. `q`/`qv`: a `"`-quoted value, `\"` escapes inside (`"password":"ab\"cd"`);
/// 4. `eq`/`eqv`: a `\"`-quoted value (JSON inside JSON), up to the next backslash;
/// 5. `sq`/`sqv`: a `'`-quoted value;
/// 6. `p`/`v`: an unquoted value after `=` or `:` (`sep`), `&` and `#` included.
macro_rules! kv_pattern {
    ($kw:literal) => {
        concat!(
            r#"(?imR)(?:(?P<qp>(?:[?&#]|\\u0026|&amp;)"#,
            key_head!(),
            $kw,
            r#"[ \t]*=[ \t]*)(?P<qpv>"#,
            value!(),
            r#")|(?P<lp>^[ \t]*(?:-[ \t]+)?["']?"#,
            key_head!(),
            $kw,
            r#"["']?:[ \t]+)(?P<lv>[^\s"'#{\[][^\r\n]*?)(?P<lc>(?:[ \t]+#[^\r\n]*)?[ \t]*)$"#,
            r#"|(?P<q>(?-u:\b)\\?["']?"#,
            key_head!(),
            $kw,
            r#"\\?["']?[ \t]*[:=][ \t]*")(?P<qv>(?:[^"\\\r\n]|\\[^\r\n])+)"#,
            r#"|(?P<eq>(?-u:\b)\\?["']?"#,
            key_head!(),
            $kw,
            r#"\\?["']?[ \t]*[:=][ \t]*\\")(?P<eqv>[^"\\\r\n]+)"#,
            r#"|(?P<sq>(?-u:\b)\\?["']?"#,
            key_head!(),
            $kw,
            r#"\\?["']?[ \t]*[:=][ \t]*')(?P<sqv>[^'\r\n]+)"#,
            r#"|(?P<p>(?-u:\b)\\?["']?"#,
            key_head!(),
            $kw,
            r#"(?P<pq>\\?["'])?(?P<sep>[ \t]*=[ \t]*|:[ \t]*))(?P<v>"#,
            kv_value!(),
            "))"
        )
    };
}

/// The built-in rules, in the order they run. Specific shapes come before generic ones, so a
/// replacement says what was there (`Authorization: Bearer <jwt>`, not `<token>`); no rule
/// matches another's replacement (a test redacts every example twice).
/// The words that start the keys and flags of the `key-value-secret` and `secret-argument` rules.
const SECRET_KEY_WORDS: &[&str] =
    &["secret", "token", "apikey", "api_key", "api-key", "access", "private", "auth", "credential"];

pub(crate) const BUILTINS: &[Builtin] = &[
    // ---- private keys ----
    Builtin {
        info: BuiltinRule {
            name: "pem-private-key",
            family: "private-keys",
            matches: "a PEM private key block, `-----BEGIN ... PRIVATE KEY-----` to its `END` line (across lines, or with `\\n` escapes in JSON, `\\\\n` in JSON inside JSON); a block cut before its `END` loses its base64 lines",
            why: "a private key is the credential itself; the whole block goes, header included",
            example: "mount failed: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Qk\n-----END RSA PRIVATE KEY----- is malformed",
            redacted: "mount failed: <pem-private-key> is malformed",
        },
        // The body is what a PEM body is (base64 runs, `Proc-Type:`/`DEK-Info:` headers,
        // whitespace or `\n` escapes), so a block cut before its `END` never reaches the `END` of
        // a later block across the text between.
        pattern: r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:(?:[ \t\r\n]|\\+[nr])*(?:[A-Za-z0-9+/=]+|(?:Proc-Type|DEK-Info):[^\r\n\\]*))*(?:[ \t\r\n]|\\+[nr])*-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:(?:[ \t\r\n]|\\+[nr])*[A-Za-z0-9+/=]{8,})*",
        replacement: "<pem-private-key>",
        check: None,
        accept: None,
        trigger: Trigger::Multiline("-----BEGIN"),
    },
    Builtin {
        info: BuiltinRule {
            name: "pem-block",
            family: "private-keys",
            matches: "any other PEM block (`CERTIFICATE`, `CERTIFICATE REQUEST`, `PUBLIC KEY`, ...), `BEGIN` to `END`",
            why: "certificates name hosts and accounts, and a paste rarely needs their bytes",
            example: "ca: -----BEGIN CERTIFICATE-----\\nMIIBszCCAVmgAwIBAgIU\\n-----END CERTIFICATE-----",
            redacted: "ca: <pem-block>",
        },
        pattern: r"-----BEGIN [A-Z0-9]+(?: [A-Z0-9]+)*-----(?:(?:[ \t\r\n]|\\+[nr])*(?:[A-Za-z0-9+/=]+|[A-Za-z\-]+:[^\r\n\\]*))*(?:[ \t\r\n]|\\+[nr])*-----END [A-Z0-9]+(?: [A-Z0-9]+)*-----",
        replacement: "<pem-block>",
        check: None,
        accept: None,
        trigger: Trigger::Multiline("-----BEGIN"),
    },
    // ---- tokens with a shape of their own ----
    Builtin {
        info: BuiltinRule {
            name: "jwt",
            family: "platform-tokens",
            matches: "a JSON Web Token anywhere: `eyJ...` header `.` `eyJ...` payload `.` signature (Kubernetes service-account tokens, OIDC id tokens), and a JWE (an `eyJ...` header and four more dot-separated parts: key, IV, ciphertext, tag)",
            why: "a JWT is a bearer credential until it expires, a JWE carries one encrypted; a JWT's base64url parts and a JWE's header start with `eyJ` (`{\"`), which no name or UID does",
            example: "token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.dGVzdHNpZ25hdHVyZQ rejected",
            redacted: "token <jwt> rejected",
        },
        // A JWE first (five parts: header, encrypted key, which is empty with `dir`, IV,
        // ciphertext, tag), then a JWS (three).
        pattern: r"eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}|eyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*",
        replacement: "<jwt>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["eyj"]),
    },
    // ---- cloud credentials ----
    Builtin {
        info: BuiltinRule {
            name: "aws-session-token",
            family: "cloud-credentials",
            matches: "the value of `X-Amz-Security-Token=` (presigned URLs), `aws_session_token` / `aws_security_token` and `\"SessionToken\"`",
            why: "a temporary credential, valid on its own with its key pair for hours",
            example: "GET https://b.s3.amazonaws.com/m.bin?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F&X-Amz-Date=20261202T101010Z",
            redacted: "GET https://b.s3.amazonaws.com/m.bin?X-Amz-Security-Token=<aws-session-token>&X-Amz-Date=20261202T101010Z",
        },
        pattern: concat!(
            r#"(?P<p>(?i:X-Amz-Security-Token=)|(?i:aws[_\-]session[_\-]token|aws[_\-]security[_\-]token)\\?["']?[ \t]*[:=][ \t]*\\?["']?|\\?"SessionToken\\?"[ \t]*:[ \t]*\\?")(?P<v>"#,
            value!(),
            ")"
        ),
        replacement: "${p}<aws-session-token>",
        check: None,
        accept: Some(not_placeholder),
        trigger: Trigger::Literals(&["x-amz-", "session", "security"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-signature",
            family: "signed-urls",
            matches: "the value of `X-Amz-Signature=` in a presigned S3 URL (host, path and the other parameters stay)",
            why: "with the URL it grants access until it expires",
            example: "Back-off pulling https://b.s3.us-west-2.amazonaws.com/llama.bin?X-Amz-Expires=3600&X-Amz-Signature=9f2c1e7ab3d4",
            redacted: "Back-off pulling https://b.s3.us-west-2.amazonaws.com/llama.bin?X-Amz-Expires=3600&X-Amz-Signature=<aws-signature>",
        },
        pattern: concat!(r"(?P<p>(?i:X-Amz-Signature=))", value!()),
        replacement: "${p}<aws-signature>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["x-amz-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-credential",
            family: "signed-urls",
            matches: "the value of `X-Amz-Credential=` in a presigned URL (`AKIA.../date/region/s3/aws4_request`)",
            why: "it carries the access key id of the signer",
            example: "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261202%2Fus-west-2%2Fs3%2Faws4_request&X-Amz-Date=20261202T000000Z",
            redacted: "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=<aws-credential>&X-Amz-Date=20261202T000000Z",
        },
        pattern: concat!(r"(?P<p>(?i:X-Amz-Credential=))", value!()),
        replacement: "${p}<aws-credential>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["x-amz-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-secret-key",
            family: "cloud-credentials",
            matches: "a 40-character AWS secret access key after its key (`aws_secret_access_key=`, `AWS_SECRET_ACCESS_KEY:`, `\"SecretAccessKey\": \"...\"`, `aws configure set aws_secret_access_key ...`, `secret key ...`) or after an access key id and `:` (s3fs passwd files)",
            why: "with the access key id it signs any request the key may make; 40 base64 characters are only told from other data by their context",
            example: "s3fs: AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY rejected",
            redacted: "s3fs: <aws-access-key-id>:<aws-secret-key> rejected",
        },
        pattern: r#"(?P<p>(?i:(?:aws[_\-. ]?)?secret[_\-. ]?(?:access[_\-. ]?)?key)\\?["']?(?:[ \t]*[:=][ \t]*|[ \t]+)\\?["']?|(?:AKIA|ASIA)[A-Z0-9]{16}:)[A-Za-z0-9/+]{40}"#,
        replacement: "${p}<aws-secret-key>",
        check: Some(not_followed_by_base64),
        accept: None,
        trigger: Trigger::Literals(&["secret", "akia", "asia"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-access-key-id",
            family: "cloud-credentials",
            matches: "AWS access key ids: `AKIA` (long-term), `ASIA` (temporary), `ABIA`, `ACCA` and 16 upper-case letters or digits",
            why: "half of a credential pair, and it names the IAM user; Kubernetes names are lower case",
            example: "using key AKIAIOSFODNN7EXAMPLE for s3://models",
            redacted: "using key <aws-access-key-id> for s3://models",
        },
        pattern: r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?-u:\b)",
        replacement: "<aws-access-key-id>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["akia", "asia", "abia", "acca"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-api-key",
            family: "cloud-credentials",
            matches: "Google API keys: `AIza` and 35 characters",
            why: "a key bills and authorizes Google APIs for its project",
            example: "maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW in config",
            redacted: "maps key <gcp-api-key> in config",
        },
        pattern: r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
        replacement: "<gcp-api-key>",
        check: Some(not_followed_by_token_char),
        accept: None,
        trigger: Trigger::Literals(&["aiza"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-oauth-token",
            family: "cloud-credentials",
            matches: "Google OAuth 2 access tokens: `ya29.` and 20 or more token characters",
            why: "a bearer credential for an hour",
            example: "token ya29.a0AfH6SMBx3kQ9Zr7Lw2Pq4tVn8 expired",
            redacted: "token <gcp-oauth-token> expired",
        },
        pattern: r"(?-u:\b)ya29\.[0-9A-Za-z_.\-]{20,}",
        replacement: "<gcp-oauth-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["ya29."]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-private-key-id",
            family: "cloud-credentials",
            matches: "the 40 hex digits of `private_key_id` in a service-account key file (its `private_key` is a PEM block)",
            why: "it identifies the key to revoke, and pastes of a key file carry the key next to it",
            example: r#"{"type": "service_account", "private_key_id": "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"}"#,
            redacted: r#"{"type": "service_account", "private_key_id": "<gcp-private-key-id>"}"#,
        },
        pattern: r#"(?P<p>\\?"?private_key_id\\?"?[ \t]*[:=][ \t]*\\?"?)[0-9a-f]{40}"#,
        replacement: "${p}<gcp-private-key-id>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["private"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-signature",
            family: "signed-urls",
            matches: "the value of `X-Goog-Signature=` in a GCS signed URL",
            why: "with the URL it grants access until it expires",
            example: "https://storage.googleapis.com/b/o.bin?X-Goog-Expires=900&X-Goog-Signature=5e1f0a9b8c7d",
            redacted: "https://storage.googleapis.com/b/o.bin?X-Goog-Expires=900&X-Goog-Signature=<gcp-signature>",
        },
        pattern: concat!(r"(?P<p>(?i:X-Goog-Signature=))", value!()),
        replacement: "${p}<gcp-signature>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["x-goog-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-credential",
            family: "signed-urls",
            matches: "the value of `X-Goog-Credential=` in a GCS signed URL (the signer's service account)",
            why: "it names the service account that signed",
            example: "?X-Goog-Credential=loader%40proj.iam.gserviceaccount.com%2F20261202%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261202T000000Z",
            redacted: "?X-Goog-Credential=<gcp-credential>&X-Goog-Date=20261202T000000Z",
        },
        pattern: concat!(r"(?P<p>(?i:X-Goog-Credential=))", value!()),
        replacement: "${p}<gcp-credential>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["x-goog-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "azure-storage-key",
            family: "cloud-credentials",
            matches: "the value of `AccountKey=` / `SharedAccessKey=` in Azure connection strings and of `azurestorageaccountkey` (blobfuse Secrets)",
            why: "a storage account key grants full access to the account",
            example: "DefaultEndpointsProtocol=https;AccountName=models;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net",
            redacted: "DefaultEndpointsProtocol=https;AccountName=models;AccountKey=<azure-storage-key>;EndpointSuffix=core.windows.net",
        },
        pattern: r#"(?P<p>(?i:AccountKey|SharedAccessKey)=|(?i:azurestorageaccountkey)\\?["']?[ \t]*[:=][ \t]*\\?["']?)[A-Za-z0-9+/]{16,}={0,2}"#,
        replacement: "${p}<azure-storage-key>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["accountkey", "access"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "azure-sas-signature",
            family: "signed-urls",
            matches: "the value of `sig=` in an Azure shared access signature (the other SAS fields stay)",
            why: "with the URL it grants what the SAS allows until it expires",
            example: "blobfuse: https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&se=2026-12-03T00:00:00Z&sig=AbC%2Bd3F%3D failed",
            redacted: "blobfuse: https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&se=2026-12-03T00:00:00Z&sig=<azure-sas-signature> failed",
        },
        pattern: concat!(r#"(?P<p>(?:^|[?&;\s"']|\\u0026|&amp;)sig=)"#, value!()),
        replacement: "${p}<azure-sas-signature>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["sig="]),
    },
    Builtin {
        info: BuiltinRule {
            name: "url-signature",
            family: "signed-urls",
            matches: "the value of a `Signature=` query parameter (CloudFront, GCS v2 and AWS v2 signed URLs, any case) or of a `, Signature=` item (an AWS4 signature logged without its header)",
            why: "with the URL it grants access until it expires",
            example: "https://d111.cloudfront.net/w.bin?Expires=1767225600&Signature=nAsDf1e2R3t4Y5&Key-Pair-Id=K2JCJMDEHXQW5F",
            redacted: "https://d111.cloudfront.net/w.bin?Expires=1767225600&Signature=<url-signature>&Key-Pair-Id=K2JCJMDEHXQW5F",
        },
        pattern: concat!(r"(?P<p>(?:[?&;]|,[ \t]*|\\u0026|&amp;)(?i:Signature)=)", value!()),
        replacement: "${p}<url-signature>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["signature="]),
    },
    // ---- platform tokens ----
    Builtin {
        info: BuiltinRule {
            name: "github-token",
            family: "platform-tokens",
            matches: "GitHub tokens: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 36+ characters, `github_pat_` and 22+",
            why: "a personal, OAuth, app or fine-grained token acts as its owner",
            example: "FailedCreate: GITHUB ghp_16C7e42F292c6912E7710c838347Ae178B4a rejected",
            redacted: "FailedCreate: GITHUB <github-token> rejected",
        },
        pattern: r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})(?-u:\b)",
        replacement: "<github-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gitlab-token",
            family: "platform-tokens",
            matches: "GitLab tokens: `glpat-` (personal), `gldt-` (deploy), `glrt-` (runner), `glptt-`, `glsoat-` and 20+ characters",
            why: "a token acts as its user, deploy key or runner",
            example: "clone with glpat-xY9zAb3Cd4Ef5Gh6Ij7K failed",
            redacted: "clone with <gitlab-token> failed",
        },
        pattern: r"(?-u:\b)gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_\-]{20,}",
        replacement: "<gitlab-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["glpat-", "gldt-", "glrt-", "glptt-", "glsoat-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "huggingface-token",
            family: "platform-tokens",
            matches: "Hugging Face tokens: `hf_` and 30+ letters and digits, mixed case",
            why: "a token downloads gated models and may write to the owner's repositories; `hf_transfer` and other names are lower case",
            example: "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 401 Unauthorized",
            redacted: "HF_TOKEN=<huggingface-token> 401 Unauthorized",
        },
        pattern: r"(?-u:\b)hf_[A-Za-z0-9]{30,}(?-u:\b)",
        replacement: "<huggingface-token>",
        check: Some(mixed_case),
        accept: None,
        trigger: Trigger::Literals(&["hf_"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "slack-token",
            family: "platform-tokens",
            matches: "Slack tokens: `xoxb-`, `xoxa-`, `xoxp-`, `xoxr-`, `xoxo-`, `xoxs-`, `xoxe-`, `xapp-` and 10+ characters",
            why: "a bot, user or app token reads and posts as its owner",
            example: "notify with xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp failed",
            redacted: "notify with <slack-token> failed",
        },
        pattern: r"(?-u:\b)(?:xox[abposre]|xapp)-[0-9A-Za-z\-]{10,}",
        replacement: "<slack-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["xox", "xapp-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "slack-webhook",
            family: "platform-tokens",
            matches: "the path of a Slack incoming webhook after `hooks.slack.com/services/` (also `workflows/`, `triggers/`); the host stays",
            why: "the path is the credential: anyone with it can post to the channel",
            example: "POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX: 404",
            redacted: "POST https://hooks.slack.com/services/<slack-webhook>: 404",
        },
        pattern: r"(?P<p>hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/\-]+",
        replacement: "${p}<slack-webhook>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["hooks.slack.com/"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "discord-webhook",
            family: "platform-tokens",
            matches: "the path of a Discord webhook after `discord.com/api/webhooks/` (also `discordapp.com`, `/api/v10/webhooks/`): its id and token; the host stays",
            why: "the path is the credential: anyone with it can post to the channel",
            example: "alert POST https://discord.com/api/webhooks/1234567890123456789/AbCdEf-GhIjKl_MnOp0123: 401",
            redacted: "alert POST https://discord.com/api/webhooks/<discord-webhook>: 401",
        },
        pattern: r"(?i)(?P<p>discord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/)[0-9]+/[A-Za-z0-9_\-]+",
        replacement: "${p}<discord-webhook>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["/webhooks/"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "npm-token",
            family: "platform-tokens",
            matches: "npm access tokens: `npm_` and 36 letters and digits (in `.npmrc` `_authToken=` lines and CI logs)",
            why: "the token publishes and reads private packages as its owner",
            example: "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
            redacted: "//registry.npmjs.org/:_authToken=<npm-token>",
        },
        pattern: r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)",
        replacement: "<npm-token>",
        check: Some(mixed_case),
        accept: None,
        trigger: Trigger::Literals(&["npm_"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "vault-token",
            family: "platform-tokens",
            matches: "HashiCorp Vault tokens: `hvs.`, `hvb.`, `hvr.` (service, batch, recovery) and 24+ base64url characters",
            why: "a Vault token reads the secrets its policies allow; it appears in injector and CSI driver errors",
            example: "vault-agent: permission denied for hvs.CAESIJ3kV5nqL9xR2bT7wY4zP8mQ1sF6hK0jN3cV",
            redacted: "vault-agent: permission denied for <vault-token>",
        },
        pattern: r"(?-u:\b)hv[sbr]\.[A-Za-z0-9_\-]{24,}",
        replacement: "<vault-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["hvs.", "hvb.", "hvr."]),
    },
    Builtin {
        info: BuiltinRule {
            name: "openai-key",
            family: "platform-tokens",
            matches: "OpenAI-style API keys: `sk-` (also `sk-proj-`, `sk-svcacct-`, `sk-ant-api03-`) and 20+ characters with upper case, lower case and digits",
            why: "an API key bills its owner; Kubernetes names (`sk-worker-0`) are lower case",
            example: "OPENAI_API_KEY: sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t quota exceeded",
            redacted: "OPENAI_API_KEY: <openai-key> quota exceeded",
        },
        pattern: r"(?-u:\b)sk-(?:proj-|svcacct-|admin-|ant-(?:api03-|admin01-)?)?[A-Za-z0-9_\-]{20,}",
        replacement: "<openai-key>",
        check: Some(mixed_case_and_digit),
        accept: None,
        trigger: Trigger::Literals(&["sk-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "ngc-api-key",
            family: "platform-tokens",
            matches: "NVIDIA NGC / build.nvidia.com API keys: `nvapi-` and 40+ base64url characters",
            why: "the key pulls from nvcr.io and calls NIM endpoints as its owner; it appears in image pull and NIM errors on GPU clusters",
            example: "pull nvcr.io/nim/llama: unauthorized for key nvapi-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEf",
            redacted: "pull nvcr.io/nim/llama: unauthorized for key <ngc-api-key>",
        },
        pattern: r"(?-u:\b)nvapi-[A-Za-z0-9_\-]{40,}",
        replacement: "<ngc-api-key>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["nvapi-"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "pypi-token",
            family: "platform-tokens",
            matches: "PyPI upload tokens: `pypi-AgE` and 50+ base64url characters (a macaroon)",
            why: "the token publishes packages as its owner",
            example: "twine: using pypi-AgEIcHlwaS5vcmcCJGE0ZjYtNDFlMi04YWQ0LWExYjItZDMwNGY1ZTEyMzQ1AAIqWzMsImQ",
            redacted: "twine: using <pypi-token>",
        },
        pattern: r"(?-u:\b)pypi-AgE[A-Za-z0-9_\-]{50,}",
        replacement: "<pypi-token>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["pypi-age"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "stripe-key",
            family: "platform-tokens",
            matches: "Stripe secret and restricted keys: `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` and 16+ alphanumerics",
            why: "a secret key moves money as its owner",
            example: "billing webhook failed with sk_live_51HqLyjWDarjtT1zdp7dcAbCdEf",
            redacted: "billing webhook failed with <stripe-key>",
        },
        pattern: r"(?-u:\b)[rs]k_(?:live|test)_[0-9A-Za-z]{16,}",
        replacement: "<stripe-key>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["k_live_", "k_test_"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "pem-base64",
            family: "private-keys",
            matches: "a base64-encoded PEM block: `LS0tLS1CRUdJTi` (`-----BEGIN` in base64) and the base64 after it (kubeconfig `client-key-data`, a Secret's `tls.key` in `data:`)",
            why: "decoding it gives the private key (or certificate) itself; no name or id starts with these fourteen characters",
            example: "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdXZaNlF3ZXJ0eQ==",
            redacted: "client-key-data: <pem-base64>",
        },
        pattern: r"LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}",
        replacement: "<pem-base64>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["ls0tls1crudjti"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "docker-auth",
            family: "platform-tokens",
            matches: "registry credentials in a Docker config: the value of `\"auth\"`, `\"identitytoken\"`, `\"registrytoken\"`, and a whole base64 `.dockerconfigjson` / `.dockercfg`",
            why: "`auth` is base64 of `user:password`",
            example: r#"{"auths":{"nvcr.io":{"auth":"JG9hdXRodG9rZW46bnZhcGktYWJj"}}}"#,
            redacted: r#"{"auths":{"nvcr.io":{"auth":"<docker-auth>"}}}"#,
        },
        pattern: r#"(?P<p>\\?"(?:auth|identitytoken|registrytoken)\\?"[ \t]*:[ \t]*\\?"|\.docker(?:configjson|cfg)\\?"?[ \t]*:[ \t]*\\?"?)[A-Za-z0-9+/=_\-.]+"#,
        replacement: "${p}<docker-auth>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["auth", "token", ".docker"]),
    },
    // ---- headers ----
    Builtin {
        info: BuiltinRule {
            name: "authorization",
            family: "headers",
            matches: "the credentials of an `Authorization:` / `Proxy-Authorization:` header of any scheme (the scheme stays; `AWS4-HMAC-SHA256`, `Digest` and other parameter lists go whole, quoted parameters included; AWS v2 `AWS key:signature`; a URL-encoded `Bearer%20...`); with an unknown scheme the value must look like a credential",
            why: "the header is the credential; `authorization: permission denied` is prose and stays",
            example: "Authorization: Basic dXNlcjpwYXNzd29yZA== denied",
            redacted: "Authorization: Basic <token> denied",
        },
        pattern: concat!(
            r#"(?i)(?-u:\b)(?P<p>(?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?)"#,
            // A parameter list (`Digest username="admin", nonce="...", response="..."`): to the
            // end of the header, quoted parameters (`"..."`, or `\"...\"` inside JSON) included.
            r#"(?:(?P<m>(?:aws4-hmac-sha256|digest|signature|hoba|mutual|ntlm|negotiate)[ \t]+)(?:[^"'\\\r\n]|"[^"\r\n]*"|\\"[^"\\\r\n]*\\")+"#,
            // AWS signature version 2: `AWS <access key id>:<signature>`.
            r#"|(?P<a>aws[ \t]+)[^\s:"'\\]+:[A-Za-z0-9+/=]+"#,
            r#"|(?P<s>[a-z][a-z0-9_\-]*(?:[ \t]+|%20))(?P<v>[A-Za-z0-9\-._~+/=:]+)"#,
            r#"|(?P<b>[A-Za-z0-9\-._~+/=:]{16,}))"#
        ),
        replacement: "${p}${m}${a}${s}<token>",
        check: None,
        accept: Some(authorization_value),
        trigger: Trigger::Literals(&["auth"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "bearer-token",
            family: "headers",
            matches: "`Bearer` followed by 8+ token characters (with a digit, an inner capital or a symbol), outside an `Authorization` header; also URL-encoded (`Bearer%20...`)",
            why: "a bearer token is the credential; `bearer token expired` and `Bearer authentication` are prose",
            example: "using bearer abcdef123456 for the registry",
            redacted: "using bearer <token> for the registry",
        },
        pattern: r"(?i)(?-u:\b)(?P<p>bearer(?:[ \t]+|%20))(?P<v>[a-z0-9\-._~+/]{8,}=*)",
        replacement: "${p}<token>",
        check: None,
        accept: Some(credential_like_v),
        trigger: Trigger::Literals(&["bearer"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "cookie",
            family: "headers",
            matches: "the values of a `Cookie:` header (the first cookie's name stays, the rest of the list goes) and the value of a `Set-Cookie:` header's cookie (its name and attributes stay)",
            why: "session cookies are bearer credentials; a value that is already a replacement (`session=<jwt>`) or a placeholder stays",
            example: "Cookie: _oauth2_proxy=c2Vzc2lvbi1jb29raWU|1730556000|AbCdEf123=; theme=dark",
            redacted: "Cookie: _oauth2_proxy=<cookie>",
        },
        pattern: concat!(
            r#"(?i)(?-u:\b)(?:(?P<sc>set-cookie\\?["']?[ \t]*:[ \t]*\\?["']?[A-Za-z0-9!#$%&*+.^_`|~\-]+=)(?P<w>[^;\s"'\\<>]+)"#,
            r#"|(?P<c>cookie\\?["']?[ \t]*:[ \t]*\\?["']?[A-Za-z0-9!#$%&*+.^_`|~\-]+=)(?P<v>[^;\s"'\\<>]+)"#,
            r#"(?:;[ \t]*[A-Za-z0-9!#$%&*+.^_`|~\-]+=[^;\s"'\\<>]*)*)"#
        ),
        replacement: "${sc}${c}<cookie>",
        check: None,
        accept: Some(cookie_value),
        trigger: Trigger::Literals(&["cookie"]),
    },
    // ---- URLs and connection strings ----
    Builtin {
        info: BuiltinRule {
            name: "connection-string-password",
            family: "connection-strings",
            matches: "the password in a database or broker URL (`postgres://`, `postgresql://`, `mysql://`, `mariadb://`, `mongodb://`, `mongodb+srv://`, `redis://`, `rediss://`, `amqp://`, `amqps://`, `mssql://`, `sqlserver://`, `clickhouse://`, `nats://`); the user stays",
            why: "the password is the secret, the user tells a reader which account failed",
            example: "dial postgres://trainer:s3cr3t@db.ml.svc:5432/runs failed",
            redacted: "dial postgres://trainer:<password>@db.ml.svc:5432/runs failed",
        },
        pattern: r#"(?i)(?-u:\b)(?P<p>(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|clickhouse|nats)://[^\s:/?#@"'<>]*:)[^\s/?#@"'<>]+(?:@[^\s/?#@"'<>]+)*@"#,
        replacement: "${p}<password>@",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["://"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "url-credentials",
            family: "connection-strings",
            matches: "the user information of any other URL: `scheme://user:pass@host`, `scheme://token@host`",
            why: "credentials in a URL (registry, git remote, proxy) are the credential; `ftp://anonymous@`, `ssh://git@` carry none and stay",
            example: "pull https://robot:s3cr3t@registry.example.com/v2/ml/llama: 401",
            redacted: "pull https://<credentials>@registry.example.com/v2/ml/llama: 401",
        },
        // The user information may hold another rule's replacement (`s3://<aws-access-key-id>:secret@`):
        // the secret after it still goes; a user information that is only a replacement stays.
        pattern: r"(?i)(?-u:\b)(?P<p>[a-z][a-z0-9+.\-]*://)(?P<v>[^\s/?#@]+(?:@[^\s/?#@]+)*)@",
        replacement: "${p}<credentials>@",
        check: None,
        accept: Some(not_only_a_replacement),
        trigger: Trigger::Literals(&["://"]),
    },
    // ---- key-value secrets ----
    Builtin {
        info: BuiltinRule {
            name: "key-value-password",
            family: "key-value",
            matches: concat!(
                "the value of a key ending in `password`, `passwd`, `passphrase` or `_pwd` (`DB_PASSWORD=`, `MYSQL_PWD=`, `--password=`, `\"password\": \"...\"`, `adminPassword: ...`, `?password=`); ",
                "after an unquoted `key:` the value must look like a credential (6+ characters with a digit, an inner capital or a symbol)"
            ),
            why: "the value is the secret; `passwordFile: /etc/x`, placeholders (`<set to the key ...>`, `$(VAR)`, `true`) and prose (`password: invalid`) stay",
            example: r#"env POSTGRES_PASSWORD=hunter2 and {"password": "p@ss w0rd"}"#,
            redacted: r#"env POSTGRES_PASSWORD=<password> and {"password": "<password>"}"#,
        },
        pattern: kv_pattern!("(?:password|passwd|passphrase|requirepass|masterauth|[_\\-]pwd)"),
        replacement: "${qp}${lp}${q}${eq}${sq}${p}<password>${lc}",
        check: None,
        accept: Some(key_value),
        trigger: Trigger::Literals(&["pass", "pwd"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "key-value-secret",
            family: "key-value",
            matches: concat!(
                "the value of a key ending in `secret`, `token`, `apikey` / `api_key`, `access_key`, `private_key`, `auth_key`, `credential(s)` (optionally then `key`): ",
                "`AWS_SECRET_ACCESS_KEY=`, `client_secret=`, `GITHUB_TOKEN:`, `?access_token=`, `\"apiKey\": \"...\"`; same value rules as `key-value-password`"
            ),
            why: "the value is the secret; `secretName:`, `tokenExpirationSeconds:`, `secretKeyRef` and prose (`failed to get token: context deadline exceeded`) stay",
            example: "client_secret=Zx8vQ2 and access_token=ya2.Qw3 sent",
            redacted: "client_secret=<secret> and access_token=<secret> sent",
        },
        pattern: kv_pattern!(
            r"(?:secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)(?:[_\-.]?key)?"
        ),
        replacement: "${qp}${lp}${q}${eq}${sq}${p}<secret>${lc}",
        check: None,
        accept: Some(key_value_secret),
        trigger: Trigger::Literals(SECRET_KEY_WORDS),
    },
    Builtin {
        info: BuiltinRule {
            name: "password-argument",
            family: "key-value",
            matches: concat!(
                "a password given as its own argument: after `--password`, `--db-passwd`, `--passphrase`, `--pass` and the like (space-separated, or the next item of a JSON array: `[\"--password\", \"...\"]`), ",
                "after redis' `requirepass` / `masterauth`, glued to `-p` on a `mysql` / `mariadb` command line (`mysql -u root -pS3cret`), ",
                "after `-p` of `docker login` (podman, nerdctl, oras, skopeo, `helm registry login`) and `sshpass`, `-a` of `redis-cli`, and the password of `curl -u user:password`"
            ),
            why: "the argument after the flag is the secret; a flag followed by another flag or by prose (`--password is required`) stays, and so does `mysql -p` alone (it prompts)",
            example: "mysql -u root -pS3cretPw -h db; --password S3cr3tP4ss --user admin",
            redacted: "mysql -u root -p<password> -h db; --password <password> --user admin",
        },
        pattern: concat!(
            r#"(?i)(?:(?P<p>(?:^|[ \t\["'=])--(?:[a-z0-9]+[\-_])*(?:password|passwd|passphrase|pass)"#,
            r#"(?:[ \t]+|\\?["'][ \t]*,[ \t]*\\?["'])|(?-u:\b)(?:requirepass|masterauth)[ \t]+)(?P<v>[^\s"'\\,;<>{}\[\]()]+)"#,
            r#"|(?P<my>(?-u:\b)(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb)(?-u:\b)[^\r\n]*?[ \t](?-i:-p))(?P<mv>[^\s"'\\]+)"#,
            // `docker login -p X` (and podman, nerdctl, helm registry, oras, skopeo), `sshpass -p X`,
            // `redis-cli -a X`, `curl -u user:X`.
            r#"|(?P<dl>(?-u:\b)(?:(?:docker|podman|nerdctl|oras|skopeo|helm[ \t]+registry)[ \t]+login|sshpass)(?-u:\b)[^\r\n]*?[ \t](?-i:-p)[ \t]*|(?-u:\b)redis-cli(?-u:\b)[^\r\n]*?[ \t](?-i:-a)[ \t]+)(?P<dv>[^\s"'\\]+)"#,
            r#"|(?P<cu>(?-u:\b)curl(?-u:\b)[^\r\n]*?[ \t](?:-u|--user)[ \t]+\\?["']?[^\s:"'\\]+:)(?P<cv>[^\s"'\\]+))"#
        ),
        replacement: "${p}${my}${dl}${cu}<password>",
        check: None,
        accept: Some(argument_value),
        // `--password`, `requirepass` and `masterauth` hold `pass` or `auth`.
        trigger: Trigger::Literals(&["pass", "auth", "mysql", "mariadb", "login", "redis-cli", "curl"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "secret-argument",
            family: "key-value",
            matches: "a token or key given as its own argument: after `--token`, `--api-key`, `--hf-token`, `--client-secret`, `--access-key` and the like (space-separated, or the next item of a JSON array)",
            why: "the argument after the flag is the secret; a flag followed by another flag or by prose (`Flag --token has been deprecated`) stays",
            example: r#"kubeadm join --token abcdef.0123456789abcdef; args: ["--api-key", "tok-9aF3kL2mQ8xYz"]"#,
            redacted: r#"kubeadm join --token <secret>; args: ["--api-key", "<secret>"]"#,
        },
        pattern: concat!(
            r#"(?i)(?P<p>(?:^|[ \t\["'=])--(?:[a-z0-9]+[\-_])*(?:secret|token|api[_\-]?key|access[_\-]?key|secret[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)"#,
            r#"(?:[ \t]+|\\?["'][ \t]*,[ \t]*\\?["']))(?P<v>[^\s"'\\,;<>{}\[\]()]+)"#
        ),
        replacement: "${p}<secret>",
        check: None,
        accept: Some(argument_value),
        trigger: Trigger::Literals(SECRET_KEY_WORDS),
    },
    Builtin {
        info: BuiltinRule {
            name: "argument-list-secret",
            family: "key-value",
            matches: "the item after a secret's flag in a YAML list (`args:` / `command:` of a container): `- --password` then `- S3cret` on the next line, for the flags of `password-argument` and `secret-argument`",
            why: "the next item is the flag's value; a next item that is another flag (`- --verbose`) or a reference (`- $(HF_TOKEN)`) stays",
            example: "args:\n- --api-key\n- tok-9aF3kL2mQ8xYz\n- --port\n- \"8000\"",
            redacted: "args:\n- --api-key\n- <secret>\n- --port\n- \"8000\"",
        },
        pattern: concat!(
            r#"(?im)(?P<p>^[ \t]*-[ \t]+["']?--(?:[a-z0-9]+[\-_])*(?:password|passwd|passphrase|pass|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)"#,
            r#"["']?[ \t]*\r?\n[ \t]*-[ \t]+["']?)(?P<v>[^\s"'\\,{}\[\]]+)"#
        ),
        replacement: "${p}<secret>",
        check: None,
        accept: Some(argument_value),
        trigger: Trigger::Multiline("- --"),
    },
    Builtin {
        info: BuiltinRule {
            name: "env-value",
            family: "key-value",
            matches: concat!(
                "the `value` of an env entry whose `name` is a secret's (ends in `password`, `passwd`, `secret`, `token`, `apikey` / `api_key`, `access_key`, `private_key`, `credential(s)`): ",
                "`- name: DB_PASSWORD` then `value: ...` on the next line (`kubectl get pod -o yaml`), and `{\"name\":\"DB_PASSWORD\",\"value\":\"...\"}` in JSON (also `\\\"`-escaped, as in last-applied-configuration)"
            ),
            why: "a Pod's env is where credentials are most often written in plain text; `valueFrom` (a secretKeyRef) is not a value and stays",
            example: "env:\n- name: AWS_SECRET_ACCESS_KEY\n  value: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n- name: LOG_LEVEL\n  value: debug",
            redacted: "env:\n- name: AWS_SECRET_ACCESS_KEY\n  value: <secret>\n- name: LOG_LEVEL\n  value: debug",
        },
        pattern: concat!(
            r#"(?i)(?P<p>(?-u:\b)name\\?["']?[ \t]*:[ \t]*\\?["']?"#,
            key_head!(),
            r#"(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)(?:[_\-.]?key)?\\?["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*|\\r?\\n[ \t]*)\\?["']?value\\?["']?[ \t]*:[ \t]*\\?["']?)(?P<v>[^\s"'\\,{}\[\]]+)"#
        ),
        replacement: "${p}<secret>",
        check: None,
        accept: Some(env_value),
        trigger: Trigger::Multiline("alue"),
    },
    // ---- personal data ----
    Builtin {
        info: BuiltinRule {
            name: "email",
            family: "personal",
            matches: "e-mail addresses `local@domain.tld`",
            why: "they name people; image digests (`@sha256:`) and Go modules (`@v1.2.3`) have no domain; a URL's user and host (`ftp://anonymous@ftp.example.com`) are no address",
            example: "owner alice.smith+gpu@example.co.uk notified",
            redacted: "owner <email> notified",
        },
        pattern: r"(?-u:\b)[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?-u:\b)",
        replacement: "<email>",
        check: Some(not_a_url_user),
        accept: None,
        trigger: Trigger::At,
    },
    // ---- accounts and provider resource ids ----
    Builtin {
        info: BuiltinRule {
            name: "aws-account-id",
            family: "resource-ids",
            matches: "the 12-digit account inside an ARN (`arn:aws:iam::123456789012:...`); the rest of the ARN stays",
            why: "the account id names the customer",
            example: "profile arn:aws:iam::123456789012:instance-profile/KarpenterNode",
            redacted: "profile arn:aws:iam::<account-id>:instance-profile/KarpenterNode",
        },
        pattern: r"(?-u:\b)(arn:aws[a-z\-]*:[a-z0-9\-]*:[a-z0-9\-]*:)[0-9]{12}(:)",
        replacement: "${1}<account-id>${2}",
        check: None,
        accept: None,
        // `rn:aws`, not `arn:`: `warning` holds `arn`, and the screen looks at first bytes.
        trigger: Trigger::Literals(&["rn:aws"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-instance-id",
            family: "resource-ids",
            matches: "EC2 instance ids: `i-` and 8 or 17 lower-case hex digits, not inside a longer hyphenated name",
            why: "they locate the customer's machines; `gpu-i-12345678` and `i-12345678-worker` are names and stay",
            example: "launched nodeclaim gpu-ljvhl as i-0123456789abcdef0",
            redacted: "launched nodeclaim gpu-ljvhl as <instance-id>",
        },
        pattern: r"(?-u:\b)i-(?:[0-9a-f]{17}|[0-9a-f]{8})(?-u:\b)",
        replacement: "<instance-id>",
        check: Some(not_in_name),
        accept: None,
        trigger: Trigger::DashedId(&["i"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "aws-resource-id",
            family: "resource-ids",
            matches: "other EC2/EFS resource ids: `eni-`, `vol-`, `subnet-`, `sg-`, `vpc-`, `snap-`, `ami-`, `igw-`, `nat-`, `rtb-`, `eipalloc-`, `fs-`, `fsap-` and 8 or 17 lower-case hex digits; the prefix stays",
            why: "they locate the customer's network and disks; names that merely start so (`sg-gpu-pool`) stay",
            example: "attach eni-0a1b2c3d4e5f60718 in subnet-12ab34cd failed, sg-0f1e2d3c",
            redacted: "attach eni-<id> in subnet-<id> failed, sg-<id>",
        },
        pattern: r"(?-u:\b)(eni|vol|subnet|sg|vpc|snap|ami|igw|nat|rtb|eipalloc|fs|fsap)-(?:[0-9a-f]{17}|[0-9a-f]{8})(?-u:\b)",
        replacement: "${1}-<id>",
        check: Some(not_in_name),
        accept: None,
        trigger: Trigger::DashedId(&[
            "eni", "vol", "subnet", "sg", "vpc", "snap", "ami", "igw", "nat", "rtb", "eipalloc", "fs", "fsap",
        ]),
    },
    Builtin {
        info: BuiltinRule {
            name: "azure-subscription",
            family: "resource-ids",
            matches: "the subscription UUID in `/subscriptions/<uuid>` resource ids",
            why: "the subscription names the customer; other UUIDs (Pod UIDs, GPU UUIDs) stay",
            example: "/subscriptions/0b1f6471-1bf0-4dda-aec3-cb9272f09590/resourceGroups/mc_rg",
            redacted: "/subscriptions/<subscription-id>/resourceGroups/mc_rg",
        },
        pattern: r"(?i)(/subscriptions/)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?-u:\b)",
        replacement: "${1}<subscription-id>",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["/subscriptions/"]),
    },
    Builtin {
        info: BuiltinRule {
            name: "gcp-project",
            family: "resource-ids",
            matches: "the project in `gce://<project>/` provider ids and `projects/<project>/` API paths",
            why: "the project id names the customer; node names stay",
            example: "node gce://project-a1/us-central1-a/gke-gpu-x7k2",
            redacted: "node gce://<project>/us-central1-a/gke-gpu-x7k2",
        },
        pattern: r"(?-u:\b)(gce://|projects/)[a-z][a-z0-9\-]{4,28}[a-z0-9]/",
        replacement: "${1}<project>/",
        check: None,
        accept: None,
        trigger: Trigger::Literals(&["gce://", "projects/"]),
    },
    // ---- network addresses ----
    Builtin {
        info: BuiltinRule {
            name: "mac-address",
            family: "network",
            matches: "MAC addresses: six pairs of hex digits joined by `:` or by `-`",
            why: "they identify hardware; times (`10:23:45`), UUIDs and dates have other shapes",
            example: "link 00:1a:2b:3c:4d:5e down",
            redacted: "link <mac> down",
        },
        pattern: r"(?i)(?-u:\b)[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?-u:\b)|(?-u:\b)[0-9a-f]{2}(?:-[0-9a-f]{2}){5}(?-u:\b)",
        replacement: "<mac>",
        check: Some(mac_check),
        accept: None,
        trigger: Trigger::Mac,
    },
    Builtin {
        info: BuiltinRule {
            name: "ipv6",
            family: "network",
            matches: "IPv6 addresses, validated with `std::net::Ipv6Addr` (IPv4-mapped included), not glued to letters, `:`, `.` or `-`",
            why: "addresses locate machines; `std::vector`, `a :: b` and times do not parse",
            example: "lookup [fd00:10:96::a]:53 failed",
            redacted: "lookup [<ipv6>]:53 failed",
        },
        // An address with an IPv4 tail first (so `::ffff:10.0.0.1` is one match), then plain
        // colon-hex groups; `ipv6_check` validates the candidate.
        pattern: r"(?:[0-9A-Fa-f]{0,4}:){2,6}(?:[0-9]{1,3}\.){3}[0-9]{1,3}|(?:[0-9A-Fa-f]{1,4})?(?::[0-9A-Fa-f]{0,4}){2,7}",
        replacement: "<ipv6>",
        check: Some(ipv6_check),
        accept: None,
        trigger: Trigger::Ipv6,
    },
    Builtin {
        info: BuiltinRule {
            name: "ipv4",
            family: "network",
            matches: "dotted-quad IPv4 addresses (octets 0-255, no leading zeros), not part of a longer dotted number",
            why: "addresses locate machines; versions (`1.28.3`, `535.104.05`, `1.2.3.4.5`) stay, a bare `1.2.3.4` cannot be told from an address and goes",
            example: "dial tcp 10.96.0.10:53: i/o timeout",
            redacted: "dial tcp <ipv4>:53: i/o timeout",
        },
        pattern: r"(?-u:\b)(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}(?-u:\b)",
        replacement: "<ipv4>",
        check: Some(ipv4_check),
        accept: None,
        trigger: Trigger::DottedQuad,
    },
];

fn char_before(text: &str, at: usize) -> Option<char> {
    text.get(..at).and_then(|head| head.chars().next_back())
}

fn char_after(text: &str, at: usize) -> Option<char> {
    text.get(at..).and_then(|tail| tail.chars().next())
}

/// Whether a `.` at `at` starts another dotted number (`1.2.3.4.5`, `10.0.0.1.2`).
fn dotted_number_at(text: &str, at: usize) -> bool {
    let mut tail = text.get(at..).unwrap_or_default().chars();
    tail.next() == Some('.') && tail.next().is_some_and(|c| c.is_ascii_digit())
}

/// Keeps an id that is part of a longer hyphenated name (`my-i-12345678`, `i-12345678-worker`).
fn not_in_name(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let glued = |c: Option<char>| c.is_some_and(|c| c == '-' || c == '.' || c == '_');
    if glued(char_before(text, start)) || (glued(char_after(text, end)) && !dotted_end(text, end)) {
        return None;
    }
    Some((start, end))
}

/// Whether the text at `at` is a sentence end (`.` then whitespace or the end).
fn dotted_end(text: &str, at: usize) -> bool {
    let mut tail = text.get(at..).unwrap_or_default().chars();
    tail.next() == Some('.') && tail.next().is_none_or(char::is_whitespace)
}

/// An IPv4 candidate is an address unless it is part of a longer dotted number or a version.
fn ipv4_check(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    if char_before(text, start) == Some('.') || dotted_number_at(text, end) || version_quad(text, start, end) {
        return None;
    }
    Some((start, end))
}

/// The words a four-part version follows (`cuDNN 8.9.7.29`, `TensorRT 8.6.1.6`, `version
/// 1.2.3.4`); no address follows them.
const VERSION_WORDS: &[&str] =
    &["version", "ver", "release", "build", "cudnn", "tensorrt", "trt", "nccl", "firmware", "vbios", "bios", "rev"];

/// A dotted quad that is a version: after a version word (`cudnn 8.9.7.29`, `version=1.2.3.4`),
/// or with a pre-release suffix (`10.0.0.1-rc2`, `1.2.3.4-beta`).
fn version_quad(text: &str, start: usize, end: usize) -> bool {
    let tail = text.get(end..).unwrap_or_default();
    if let Some(suffix) = tail.strip_prefix(['-', '+', '~'])
        && suffix.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return true;
    }
    let head = text.get(..start).unwrap_or_default();
    let head = head.strip_suffix([' ', '=', ':', 'v', 'V']).unwrap_or(head).trim_end_matches(' ');
    // The word before, as ASCII bytes (`cuDNN`, `CUDNN_VERSION`): no allocation per candidate.
    let word_start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &head.as_bytes()[word_start..];
    VERSION_WORDS.iter().any(|w| {
        word.len() >= w.len()
            && word[word.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
            && (word.len() == w.len() || word[word.len() - w.len() - 1] == b'_')
    })
}

/// An IPv6 candidate is an address when it stands alone (not glued to letters, digits, `:`, `.`
/// or `-`), has a hex digit, and parses as [`std::net::Ipv6Addr`]. One trailing `:` (a sentence
/// colon, `addr fe80::1: refused`) is left out of the match.
fn ipv6_check(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let matched = text.get(start..end)?;
    let glued = |c: char| c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '-' | '_');
    if char_before(text, start).is_some_and(glued) {
        return None;
    }
    if char_after(text, end).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-' | '_'))
        || dotted_number_at(text, end)
    {
        return None;
    }
    let end = if matched.ends_with(':') && !matched.ends_with("::") { end - 1 } else { end };
    let candidate = text.get(start..end)?;
    if !candidate.bytes().any(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    // One group and a `::` (runc's `Running hook #0:: error`) is a number, not an address;
    // `::1` is.
    let groups = candidate.split(':').filter(|g| !g.is_empty()).count();
    if groups < 2 && !candidate.starts_with("::") {
        return None;
    }
    candidate.parse::<std::net::Ipv6Addr>().ok().map(|_| (start, end))
}

/// A MAC address stands alone: not glued to another hex group (`:`/`-` then hex), a longer dotted
/// number, or a name (`_`).
fn mac_check(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let glued = |c: Option<char>| c.is_some_and(|c| matches!(c, ':' | '-' | '_' | '.'));
    let before = char_before(text, start);
    let after = char_after(text, end);
    if glued(before) || (glued(after) && !dotted_end(text, end) && after != Some(':')) {
        return None;
    }
    // `aa:bb:cc:dd:ee:ff:11` is not a MAC (a seventh group follows).
    if after == Some(':') && text.get(end + 1..).and_then(|t| t.chars().next()).is_some_and(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    Some((start, end))
}

/// An address is not a URL's user and host (`ftp://anonymous@ftp.example.com`, kept by
/// `url-credentials`).
fn not_a_url_user(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    (!text[..start].ends_with("://")).then_some((start, end))
}

/// A token is not followed by more token characters (the regex's `\b` does not cover `-`).
fn not_followed_by_token_char(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let glued = char_after(text, end).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (!glued).then_some((start, end))
}

/// A 40-character key is not the head of a longer base64 string.
fn not_followed_by_base64(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let glued = char_after(text, end).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='));
    (!glued).then_some((start, end))
}

/// Random tokens have both cases; names and words of one case stay.
fn mixed_case(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let token = text.get(start..end)?;
    let upper = token.bytes().any(|b| b.is_ascii_uppercase());
    let lower = token.bytes().any(|b| b.is_ascii_lowercase());
    (upper && lower).then_some((start, end))
}

/// Random keys have both cases and a digit; Kubernetes names are lower case.
fn mixed_case_and_digit(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let token = text.get(start..end)?;
    let digit = token.bytes().any(|b| b.is_ascii_digit());
    mixed_case(text, start, end).filter(|_| digit)
}

/// A value that stands for a secret without being one: empty, a boolean, a placeholder
/// (`<set to the key ...>`, `<redacted>`, `***`, `xxx`), or a reference to where the secret is
/// (`$(VAR)`, `${VAR}`, `{{ .Values.x }}`).
pub(crate) fn is_placeholder(value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    value.is_empty()
        || matches!(
            lower.as_str(),
            "true" | "false" | "null" | "nil" | "none" | "yes" | "no" | "redacted" | "hidden" | "unset" | "undefined"
        )
        || value.starts_with('<')
        || value.starts_with('$')
        || value.starts_with("{{")
        || value.starts_with('%')
        || value.bytes().all(|b| matches!(b, b'*' | b'x' | b'X' | b'.' | b'-'))
}

/// A value that looks like a credential rather than a word of prose: 6+ characters with a digit,
/// a capital after the first character, or a symbol.
fn credential_like(value: &str) -> bool {
    value.len() >= 6
        && (value.bytes().any(|b| b.is_ascii_digit())
            || value.bytes().skip(1).any(|b| b.is_ascii_uppercase())
            || value.bytes().any(|b| !b.is_ascii_alphanumeric()))
}

/// The users of a URL that log in without a secret: anonymous FTP (`ftp://anonymous@host`) and
/// SSH git remotes (`ssh://git@github.com/...`).
const PUBLIC_URL_USERS: &[&str] = &["anonymous", "ftp", "git"];

/// A URL's user information whose secret is not already an earlier rule's `<...>`: the whole
/// (`<huggingface-token>@`) or the part after `user:` (`trainer:<password>@`) replaced stays;
/// so does a user of [`PUBLIC_URL_USERS`] with no password (or an empty one).
fn not_only_a_replacement(captures: &Captures<'_>) -> bool {
    let replaced = |v: &str| v.starts_with('<') && v.ends_with('>') && !v[1..v.len() - 1].contains(['<', '>', ':']);
    captures.name("v").is_some_and(|v| {
        let v = v.as_str();
        let secret = v.split_once(':').map_or(v, |(_, secret)| secret);
        let user = v.strip_suffix(':').unwrap_or(v);
        let public = PUBLIC_URL_USERS.iter().any(|known| user.eq_ignore_ascii_case(known));
        !replaced(v) && !replaced(secret) && !public
    })
}

fn not_placeholder(captures: &Captures<'_>) -> bool {
    captures.name("v").is_some_and(|v| !is_placeholder(v.as_str()))
}

fn credential_like_v(captures: &Captures<'_>) -> bool {
    captures.name("v").is_some_and(|v| credential_like(v.as_str()))
}

/// `key=value`, `"key": "value"`, a whole `key: value` line: any value but a placeholder (see
/// `kv_pattern!` for the forms). `key: value` with an unquoted value inside a line is also how
/// Go error chains read (`failed to get token: context deadline exceeded`), so there the value
/// must look like a credential.
fn key_value(captures: &Captures<'_>) -> bool {
    for quoted in ["qpv", "qv", "eqv", "sqv"] {
        if let Some(value) = captures.name(quoted) {
            return !is_placeholder(value.as_str());
        }
    }
    if let Some(value) = captures.name("lv") {
        let value = value.as_str();
        // `kubectl describe secret` prints sizes (`password:  16 bytes`); `|` and `>` start a
        // YAML block (the value is on the next lines).
        let size = value.strip_suffix(" bytes").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let block = matches!(value, "|" | "|-" | "|+" | ">" | ">-" | ">+");
        // A short number is a count or a port (`apikey: 12`), not a key.
        let number = value.len() < 6 && value.bytes().all(|b| b.is_ascii_digit());
        return !is_placeholder(value) && !size && !block && !number && value.len() >= 4;
    }
    let Some(value) = captures.name("v") else { return false };
    if is_placeholder(value.as_str()) {
        return false;
    }
    // A quoted key does not make prose safe either (`error reading "token": EOF`).
    let colon = captures.name("sep").is_some_and(|sep| sep.as_str().contains(':'));
    !colon || credential_like(value.as_str())
}

/// The keys (lower-cased, without `_`/`-`) whose value names a Secret rather than holding one:
/// `secret: kube-root-ca.crt` in a volume spec, Helm's `existingSecret: db-creds`.
const SECRET_NAME_KEYS: &[&str] =
    &["secret", "existingsecret", "tlssecret", "imagepullsecret", "imagepullsecrets", "casecret", "certsecret"];

/// As [`key_value`], but a key of [`SECRET_NAME_KEYS`] whose value is an object name (a DNS-1123
/// subdomain with a `-` or `.`) names a Secret and stays.
fn key_value_secret(captures: &Captures<'_>) -> bool {
    key_value(captures) && !names_a_secret(captures)
}

fn names_a_secret(captures: &Captures<'_>) -> bool {
    let prefix = ["qp", "lp", "q", "eq", "sq", "p"].iter().find_map(|name| captures.name(name));
    let value = ["qpv", "lv", "qv", "eqv", "sqv", "v"].iter().find_map(|name| captures.name(name));
    let (Some(prefix), Some(value)) = (prefix, value) else { return false };
    let key = prefix.as_str().trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_');
    // The last segment of a dotted key (`auth.existingSecret`), without `_` and `-`.
    let key = key.rsplit('.').next().unwrap_or(key);
    let key: String = key.chars().filter(|c| !matches!(c, '_' | '-')).collect::<String>().to_ascii_lowercase();
    let value = value.as_str();
    SECRET_NAME_KEYS.contains(&key.as_str()) && value.contains(['-', '.']) && is_object_name(value)
}

/// A Kubernetes object name (DNS-1123 subdomain): lower-case letters, digits, `-` and `.`,
/// starting and ending with a letter or digit, at most 253 characters.
fn is_object_name(value: &str) -> bool {
    let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    value.len() <= 253
        && edge(value.as_bytes().first())
        && edge(value.as_bytes().last())
        && value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
}

/// The words that follow a flag in prose (`--token is required`, `Flag --password has been
/// deprecated`), not a value.
const PROSE_AFTER_FLAG: &[&str] = &[
    "is", "was", "has", "have", "had", "must", "should", "cannot", "can", "will", "and", "or", "not", "the", "a", "an",
    "to", "for", "of", "with", "without", "instead", "when", "if", "in", "on", "flag", "option", "required", "set",
    "given", "from", "file", "are", "be", "only", "value", "argument",
];

/// An argument after a secret's flag that is a value: not another flag, not a placeholder, not
/// a word of prose.
fn argument_value(captures: &Captures<'_>) -> bool {
    let value = ["v", "mv", "dv", "cv"].iter().find_map(|name| captures.name(name));
    let Some(value) = value else { return false };
    let value = value.as_str();
    !value.starts_with('-')
        && !is_placeholder(value)
        && !PROSE_AFTER_FLAG.iter().any(|word| value.eq_ignore_ascii_case(word))
}

/// A cookie's value that is not a placeholder (`$SESSION`, `<redacted>`).
fn cookie_value(captures: &Captures<'_>) -> bool {
    captures.name("v").or_else(|| captures.name("w")).is_some_and(|v| !is_placeholder(v.as_str()))
}

/// An env value that is not a placeholder (`$(VAR)`, `<set to the key ...>`).
fn env_value(captures: &Captures<'_>) -> bool {
    captures.name("v").is_some_and(|v| !is_placeholder(v.as_str()))
}

/// Known single-token schemes take any value; an unknown scheme word is often prose
/// (`authorization: permission denied`), so its value must look like a credential.
fn authorization_value(captures: &Captures<'_>) -> bool {
    if captures.name("m").is_some() || captures.name("a").is_some() {
        return true;
    }
    if let Some(value) = captures.name("b") {
        return !is_placeholder(value.as_str());
    }
    let (Some(scheme), Some(value)) = (captures.name("s"), captures.name("v")) else { return false };
    let known = matches!(
        scheme.as_str().trim().to_ascii_lowercase().as_str(),
        "basic" | "bearer" | "token" | "apikey" | "api-key" | "key" | "sso-key" | "jwt" | "pat" | "oauth" | "session"
    );
    !is_placeholder(value.as_str()) && (known || credential_like(value.as_str()))
}

/// The documentation of every built-in rule, in the order they run.
pub fn builtin_rules() -> impl Iterator<Item = &'static BuiltinRule> {
    BUILTINS.iter().map(|rule| &rule.info)
}

/// The names of the built-in rules, in the order they run.
pub fn builtin_rule_names() -> impl Iterator<Item = &'static str> {
    builtin_rules().map(|rule| rule.name)
}

/// The Markdown table of the built-in rules (`src/redact/rules.md`, included in these docs; a
/// test keeps it current).
pub fn builtin_rules_markdown() -> String {
    let cell = |text: &str| text.replace('|', "\\|").replace('\n', "\\n");
    let mut out = String::from("| rule | family | matches | why | example | becomes |\n|---|---|---|---|---|---|\n");
    for rule in builtin_rules() {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | `{}` | `{}` |\n",
            rule.name,
            rule.family,
            cell(rule.matches),
            cell(rule.why),
            cell(rule.example).replace('`', "'"),
            cell(rule.redacted).replace('`', "'"),
        ));
    }
    out
}
