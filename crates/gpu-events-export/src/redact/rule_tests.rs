//! Each built-in rule with inputs it redacts and inputs it must keep; the documented examples;
//! that redacting twice changes nothing; and that the prefilter never hides a match (the engine
//! against every rule run on every line).

use std::borrow::Cow;

use super::rules::BUILTINS;
use super::*;

fn defaults() -> Redactor {
    Redactor::new(&RedactionConfig::default()).expect("the built-in rules compile")
}

/// `(rule, input, expected output)`: the rule fires, and the output is exactly this.
const POSITIVE: &[(&str, &str, &str)] = &[
    (
        "pem-private-key",
        "secret volume: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\nnext line kept",
        "secret volume: <pem-private-key>\nnext line kept",
    ),
    (
        "pem-private-key",
        r#"{"private_key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Qk\n-----END RSA PRIVATE KEY-----\n", "x": 1}"#,
        r#"{"private_key": "<pem-private-key>\n", "x": 1}"#,
    ),
    (
        "pem-private-key",
        "cut paste: -----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n  AAAAAAAAAAAAAABFwAAAAdzc2gtcn\n(truncated)",
        "cut paste: <pem-private-key>\n(truncated)",
    ),
    ("pem-block", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n", "<pem-block>\n"),
    // JSON inside JSON: the line breaks are `\\n`.
    (
        "pem-private-key",
        r#"{"data":"{\"tls.key\":\"-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIIrYSSNQFaA2\\n-----END EC PRIVATE KEY-----\"}"}"#,
        r#"{"data":"{\"tls.key\":\"<pem-private-key>\"}"}"#,
    ),
    (
        "jwt",
        "projected token eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJhdWQiOlsiYXBpIl19.c2lnbmF0dXJl_-x expired",
        "projected token <jwt> expired",
    ),
    ("jwt", "id_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "id_token=<jwt>"),
    (
        "aws-secret-key",
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AWS_SECRET_ACCESS_KEY=<aws-secret-key>",
    ),
    (
        "aws-secret-key",
        r#"{"AccessKeyId": "ASIAY34FZKBOKMUTVV7A", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}"#,
        r#"{"AccessKeyId": "<aws-access-key-id>", "SecretAccessKey": "<aws-secret-key>"}"#,
    ),
    (
        "aws-secret-key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key = <aws-secret-key>",
    ),
    ("aws-access-key-id", "s3fs: AKIAIOSFODNN7EXAMPLE denied", "s3fs: <aws-access-key-id> denied"),
    ("aws-access-key-id", "key ASIAY34FZKBOKMUTVV7A.", "key <aws-access-key-id>."),
    (
        "aws-session-token",
        "export AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLXdlc3QtMiJHMEUCIQ",
        "export AWS_SESSION_TOKEN=<aws-session-token>",
    ),
    (
        "aws-session-token",
        r#"{"SessionToken": "IQoJb3JpZ2luX2VjEJr+AbC="}"#,
        r#"{"SessionToken": "<aws-session-token>"}"#,
    ),
    (
        "aws-signature",
        r#"GET "https://m.s3.amazonaws.com/w.bin?X-Amz-Date=20261202T000000Z\u0026X-Amz-Signature=0f1e2d3c4b5a69788796a5b4c3d2e1f0\u0026x=1": 403"#,
        r#"GET "https://m.s3.amazonaws.com/w.bin?X-Amz-Date=20261202T000000Z\u0026X-Amz-Signature=<aws-signature>\u0026x=1": 403"#,
    ),
    (
        "aws-credential",
        "x-amz-credential=AKIAIOSFODNN7EXAMPLE/20261202/us-east-1/s3/aws4_request&",
        "x-amz-credential=<aws-credential>&",
    ),
    ("gcp-api-key", "?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&q=1", "?key=<gcp-api-key>&q=1"),
    ("gcp-oauth-token", "Bearer ya29.c.b0AXv0zTOp8kL3nQ2rS5tU7vW9xY", "Bearer <gcp-oauth-token>"),
    (
        "gcp-private-key-id",
        r#"{\"private_key_id\":\"0123456789abcdef0123456789abcdef01234567\"}"#,
        r#"{\"private_key_id\":\"<gcp-private-key-id>\"}"#,
    ),
    (
        "gcp-signature",
        "&X-Goog-Signature=8a7b6c5d4e3f2a1b&X-Goog-Date=1",
        "&X-Goog-Signature=<gcp-signature>&X-Goog-Date=1",
    ),
    (
        "gcp-credential",
        "?X-Goog-Credential=sa%40p.iam.gserviceaccount.com%2F20261202",
        "?X-Goog-Credential=<gcp-credential>",
    ),
    (
        "azure-storage-key",
        "azurestorageaccountkey: c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5==",
        "azurestorageaccountkey: <azure-storage-key>",
    ),
    (
        "azure-storage-key",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/AB=",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=<azure-storage-key>",
    ),
    (
        "azure-sas-signature",
        "sas token sv=2022-11-02&ss=b&srt=co&sp=rl&sig=q%2BzX9%3D expired",
        "sas token sv=2022-11-02&ss=b&srt=co&sp=rl&sig=<azure-sas-signature> expired",
    ),
    (
        "url-signature",
        "w.bin?Policy=eyJTdGF0ZW1lbnQi&Signature=Zm9vYmFy~ab&Key-Pair-Id=K1",
        "w.bin?Policy=eyJTdGF0ZW1lbnQi&Signature=<url-signature>&Key-Pair-Id=K1",
    ),
    (
        "url-signature",
        "oss ?OSSAccessKeyId=x&signature=Zm9v%2B; Credential=x/aws4_request, SignedHeaders=host, Signature=fe5f80f7",
        "oss ?OSSAccessKeyId=x&signature=<url-signature>; Credential=<secret>, SignedHeaders=host, Signature=<url-signature>",
    ),
    (
        "github-token",
        "git: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF denied",
        "git: <github-token> denied",
    ),
    ("github-token", "GITHUB_TOKEN: ghs_16C7e42F292c6912E7710c838347Ae178B4a", "GITHUB_TOKEN: <github-token>"),
    ("gitlab-token", "PRIVATE-TOKEN: glpat-1a2B3c4D5e6F7g8H9i0J", "PRIVATE-TOKEN: <gitlab-token>"),
    (
        "huggingface-token",
        "pull meta-llama/Llama-3-8B with hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567: 401",
        "pull meta-llama/Llama-3-8B with <huggingface-token>: 401",
    ),
    ("slack-token", "token=xoxp-1234567890-0987654321-AbCdEf", "token=<slack-token>"),
    (
        "slack-webhook",
        r#"{"url": "https://hooks.slack.com/workflows/T01/A02/3456/abcDEF"}"#,
        r#"{"url": "https://hooks.slack.com/workflows/<slack-webhook>"}"#,
    ),
    ("openai-key", "key sk-AbCdEfGhIjKlMnOpQrSt0123456789 rejected", "key <openai-key> rejected"),
    ("vault-token", "VAULT_TOKEN=hvb.AAAAAQJ2c2VjcmV0LXRva2VuLXZhbHVl", "VAULT_TOKEN=<vault-token>"),
    (
        "discord-webhook",
        "discord https://discordapp.com/api/v10/webhooks/1234567890123456789/AbCdEfGhIjKlMnOp_-Qr",
        "discord https://discordapp.com/api/v10/webhooks/<discord-webhook>",
    ),
    ("npm-token", "NPM_TOKEN=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 401", "NPM_TOKEN=<npm-token> 401"),
    (
        "jwt",
        "JWE eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.OKOawDo13gRp2ojaHV7L.48V1_ALb6US04U3b.5eym8TW_c8SuK0lt.XFBoMYUZodetZdvT ok",
        "JWE <jwt> ok",
    ),
    ("jwt", "dir JWE eyJhbGciOiJkaXIifQ..48V1_ALb6US04U3b.5eym8TW_c8SuK0lt.XFBoMYUZodetZdvT", "dir JWE <jwt>"),
    ("openai-key", "ANTHROPIC_API_KEY=sk-ant-api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op", "ANTHROPIC_API_KEY=<openai-key>"),
    (
        "docker-auth",
        r#"{\"auths\":{\"ghcr.io\":{\"username\":\"bot\",\"auth\":\"Ym90OmdocF9zZWNyZXQ=\"}}}"#,
        r#"{\"auths\":{\"ghcr.io\":{\"username\":\"bot\",\"auth\":\"<docker-auth>\"}}}"#,
    ),
    ("docker-auth", "  .dockerconfigjson: eyJhdXRocyI6eyJuYXJjLmlvIjp7fX19", "  .dockerconfigjson: <docker-auth>"),
    (
        "authorization",
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261202/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=fe5f80f77d5f",
        "Authorization: AWS4-HMAC-SHA256 <token>",
    ),
    (
        "authorization",
        "proxy-authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag",
        "proxy-authorization: Negotiate <token>",
    ),
    (
        "authorization",
        "Authorization: GenieKey 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        "Authorization: GenieKey <token>",
    ),
    ("authorization", "Authorization: token ghx_notashape", "Authorization: token <token>"),
    (
        "authorization",
        r#"Authorization: Digest username="admin", realm="harbor", nonce="dcd98b71", uri="/v2/", response="6629fae4", opaque="5ccc069c", cnonce="0a4f113b""#,
        "Authorization: Digest <token>",
    ),
    (
        "authorization",
        r#"message: "ip 10.0.0.1 Authorization: Digest username=\"admin\", response=\"6629fae4\"""#,
        r#"message: "ip <ipv4> Authorization: Digest <token>""#,
    ),
    (
        "authorization",
        "Authorization: AWS AKIAIOSFODNN7EXAMPLE:frJIUN8DYpKDtOLCwo//yllqDzg= denied",
        "Authorization: AWS <token> denied",
    ),
    ("authorization", "GET /x?authorization=Bearer%20abcDEF123456ghi&y=1", "GET /x?authorization=Bearer%20<token>&y=1"),
    ("bearer-token", "header: Bearer AbC.dEf-123_ghI", "header: Bearer <token>"),
    ("bearer-token", "?auth_header=Bearer%20abcDEF123456ghi&x=1", "?auth_header=Bearer%20<token>&x=1"),
    (
        "cookie",
        "    Cookie: _oauth2_proxy=c2Vzc2lvbi1jb29raWUtdmFsdWUtMTIz|1730556000|AbCdEf123=",
        "    Cookie: _oauth2_proxy=<cookie>",
    ),
    (
        "cookie",
        r#"Set-Cookie: sid=s%3AbC9d.Ef8; Path=/; HttpOnly and {"Cookie":"a=1; b=2"}"#,
        r#"Set-Cookie: sid=<cookie>; Path=/; HttpOnly and {"Cookie":"a=<cookie>"}"#,
    ),
    (
        "connection-string-password",
        "mongodb+srv://app:p%40ss:w0rd@cluster0.mongodb.net/db?retryWrites=true",
        "mongodb+srv://app:<password>@cluster0.mongodb.net/db?retryWrites=true",
    ),
    ("connection-string-password", "redis://:hunter2@redis-master:6379/0", "redis://:<password>@redis-master:6379/0"),
    ("connection-string-password", "amqps://guest:Gu3st@rabbit.svc/vhost", "amqps://guest:<password>@rabbit.svc/vhost"),
    (
        "url-credentials",
        "proxy http://u:p@squid.corp:3128 refused",
        "proxy http://<credentials>@squid.corp:3128 refused",
    ),
    ("key-value-password", "--password=Tr0ub4dor&3 --user x", "--password=<password> --user x"),
    ("key-value-password", "      DB_PASSWORD=Tr0ub4dor&3", "      DB_PASSWORD=<password>"),
    (
        "key-value-password",
        r#"psql "host=pg.ml.svc user=mlflow password=Pg$Pass#2024 sslmode=require""#,
        r#"psql "host=pg.ml.svc user=mlflow password=<password> sslmode=require""#,
    ),
    (
        "key-value-password",
        r#"{"password":"ab\"cd123XYZ","user":"x"} and {\"password\":\"S3cr\"}"#,
        r#"{"password":"<password>","user":"x"} and {\"password\":\"<password>\"}"#,
    ),
    (
        "key-value-password",
        "  adminPassword: changeme\n  password: my secret pass 123 # rotated\r\nrequirepass: R3disPass99\n",
        "  adminPassword: <password>\n  password: <password> # rotated\r\nrequirepass: <password>\n",
    ),
    (
        "key-value-password",
        "GET /login?user=a&password=b4d&x=1#frag and /cb#password=p4ss&state=s",
        "GET /login?user=a&password=<password>&x=1#frag and /cb#password=<password>&state=s",
    ),
    ("key-value-password", "      MYSQL_ROOT_PASSWORD:  R00tPass", "      MYSQL_ROOT_PASSWORD:  <password>"),
    (
        "key-value-password",
        "export MYSQL_PWD=S3cret; DB-PWD: x9Kq2zZ",
        "export MYSQL_PWD=<password>; DB-PWD: <password>",
    ),
    ("key-value-password", "{Password:hunter2! User:admin}", "{Password:<password> User:admin}"),
    ("key-value-password", "'adminPassword': 'correct horse'", "'adminPassword': '<password>'"),
    (
        "key-value-password",
        "jdbc:postgresql://db/x?user=a&password=b4d",
        "jdbc:postgresql://db/x?user=a&password=<password>",
    ),
    ("key-value-secret", "CLIENT_SECRET=abc and apiKey: 'k-123'", "CLIENT_SECRET=<secret> and apiKey: '<secret>'"),
    ("key-value-secret", r#"{"api_key":"x9"}"#, r#"{"api_key":"<secret>"}"#),
    ("key-value-secret", "GET /v1/models?access_token=Ab9Cd8&limit=5", "GET /v1/models?access_token=<secret>&limit=5"),
    ("key-value-secret", "HF_TOKEN: s3cr3t-t0k3n", "HF_TOKEN: <secret>"),
    (
        "key-value-secret",
        "npm //registry.npmjs.org/:_authToken=abc123XYZ done",
        "npm //registry.npmjs.org/:_authToken=<secret> done",
    ),
    (
        "key-value-secret",
        "kubeadm join --token abcdef --discovery-token=abcdef.0123456789abcdef",
        "kubeadm join --token <secret> --discovery-token=<secret>",
    ),
    (
        "password-argument",
        r#"args: ["--db-passwd", "s3cr3t99", "-v"]; redis-cli CONFIG SET requirepass R3dis99"#,
        r#"args: ["--db-passwd", "<password>", "-v"]; redis-cli CONFIG SET requirepass <password>"#,
    ),
    (
        "password-argument",
        "mysqldump --single-transaction -pS3cret! ml",
        "mysqldump --single-transaction -p<password> ml",
    ),
    (
        "password-argument",
        "docker login -u bot -p S3cr3t reg.io; sshpass -pHunter2 ssh x; redis-cli -h r -a R3dis! ping; curl -u 'ops:Pa55w0rd' https://x",
        "docker login -u bot -p <password> reg.io; sshpass -p<password> ssh x; redis-cli -h r -a <password> ping; curl -u 'ops:<password>' https://x",
    ),
    (
        "secret-argument",
        "vllm serve --api-key tok-9aF3kL2mQ8xYz --hf-token=hf_x and --client-secret Zx8 -v",
        "vllm serve --api-key <secret> --hf-token=<secret> and --client-secret <secret> -v",
    ),
    (
        "aws-secret-key",
        "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; secret key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws configure set aws_secret_access_key <aws-secret-key>; secret key <aws-secret-key>",
    ),
    (
        "env-value",
        "    - name: DB_PASSWORD\n      value: S3cr3tPa55\n    - name: WANDB_API_KEY\n      value: 8f2a9c4e1b7d\n",
        "    - name: DB_PASSWORD\n      value: <secret>\n    - name: WANDB_API_KEY\n      value: <secret>\n",
    ),
    (
        "env-value",
        r#"{"env":[{"name":"API_TOKEN","value":"t0k3nV4lu3Xyz"},{"name":"MODE","value":"fast"}]}"#,
        r#"{"env":[{"name":"API_TOKEN","value":"<secret>"},{"name":"MODE","value":"fast"}]}"#,
    ),
    (
        "env-value",
        r#"{\"name\":\"DB_PASSWORD\",\"value\":\"S3cr3tPa55\"}"#,
        r#"{\"name\":\"DB_PASSWORD\",\"value\":\"<secret>\"}"#,
    ),
    (
        "argument-list-secret",
        "    args:\r\n    - \"--db-password\"\r\n    - \"S3cretInYamlList\"\r\n    - --hf-token\n    - hf_x\n",
        "    args:\r\n    - \"--db-password\"\r\n    - \"<secret>\"\r\n    - --hf-token\n    - <secret>\n",
    ),
    // A YAML flow mapping keeps its closing brackets.
    (
        "env-value",
        "env: [{name: API_KEY, value: AbCd1234EfGh5678}, {name: MODE, value: fast}]",
        "env: [{name: API_KEY, value: <secret>}, {name: MODE, value: fast}]",
    ),
    // Found by a review: the sentence colon after a signed URL's value stays.
    (
        "aws-signature",
        "GET https://b.s3.amazonaws.com/m?X-Amz-Signature=3f9a2b7c1e8d4f6a: 403 Forbidden",
        "GET https://b.s3.amazonaws.com/m?X-Amz-Signature=<aws-signature>: 403 Forbidden",
    ),
    // Found by a review: a key cut before its END does not reach a later block's END.
    (
        "pem-private-key",
        "  ssh-key: -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n    ... (truncated)\nEvents:\n  Normal   Scheduled  1m  default-scheduler  Successfully assigned ml/llama-0 to gpu-node-h100-03\n  tls: -----BEGIN PRIVATE KEY-----\n    MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n    -----END PRIVATE KEY-----\n",
        "  ssh-key: <pem-private-key>\n    ... (truncated)\nEvents:\n  Normal   Scheduled  1m  default-scheduler  Successfully assigned ml/llama-0 to gpu-node-h100-03\n  tls: <pem-private-key>\n",
    ),
    (
        "ngc-api-key",
        "docker login nvcr.io -u '$oauthtoken' -p nvapi-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrSt failed",
        "docker login nvcr.io -u '$oauthtoken' -p <ngc-api-key> failed",
    ),
    (
        "pem-base64",
        "  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND\n  tls.crt: x",
        "  tls.key: <pem-base64>\n  tls.crt: x",
    ),
    (
        "pypi-token",
        "TWINE_PASSWORD not set; token pypi-AgEIcHlwaS5vcmcCJGE0ZjYtNDFlMi04YWQ0LWExYjItZDMwNGY1ZTEyMzQ1AAIq rejected",
        "TWINE_PASSWORD not set; token <pypi-token> rejected",
    ),
    ("stripe-key", "STRIPE=sk_test_4eC39HqLyjWDarjtT1zdp7dc ok", "STRIPE=<stripe-key> ok"),
    // Found by a review: an access key id as a URL's user does not save the secret after it.
    ("url-credentials", "s3://AKIAZ7QK3MNB4XRT2PLW:secretkeysecretkey@bucket/path", "s3://<credentials>@bucket/path"),
    ("url-credentials", "ftp://anonymous:Pa55w0rd@ftp.example.com/x", "ftp://<credentials>@ftp.example.com/x"),
    ("email", "contact ops@gpu-lab.example.org", "contact <email>"),
    (
        "aws-account-id",
        "arn:aws-cn:eks:cn-north-1:123456789012:cluster/x",
        "arn:aws-cn:eks:cn-north-1:<account-id>:cluster/x",
    ),
    ("aws-instance-id", "aws:///us-west-2a/i-0123456789abcdef0", "aws:///us-west-2a/<instance-id>"),
    ("aws-resource-id", "volume vol-0123456789abcdef0 stuck attaching", "volume vol-<id> stuck attaching"),
    (
        "aws-resource-id",
        "AttachVolume.Attach failed: eni-0a1b2c3d4e5f60718 in arn:aws:ec2:us-west-2:123456789012:network-interface/eni-0a1b2c3d4e5f60718",
        "AttachVolume.Attach failed: eni-<id> in arn:aws:ec2:us-west-2:<account-id>:network-interface/eni-<id>",
    ),
    (
        "azure-subscription",
        "/SUBSCRIPTIONS/0B1F6471-1BF0-4DDA-AEC3-CB9272F09590/x",
        "/SUBSCRIPTIONS/<subscription-id>/x",
    ),
    ("gcp-project", "projects/ml-prod-4711/zones/us-central1-a", "projects/<project>/zones/us-central1-a"),
    ("mac-address", "hw 0A-1B-2C-3D-4E-5F, then aa:bb:cc:dd:ee:ff.", "hw <mac>, then <mac>."),
    ("ipv6", "peer 2001:db8:0:0:0:0:2:1 and ::1.", "peer <ipv6> and <ipv6>."),
    ("ipv4", "node IP 192.168.0.255.", "node IP <ipv4>."),
];

/// `(rule, input)`: nothing in the input may change. Each rule's near misses.
const NEGATIVE: &[(&str, &str)] = &[
    ("pem-private-key", "the key file has no -----BEGIN line"),
    ("pem-block", "-----BEGIN-----"),
    ("jwt", "eyJhbGciOiJSUzI1NiJ9 alone is only a header; eyJ.eyJ.x; eyJhbGci.a.b.c.d (short JWE parts)"),
    ("aws-secret-key", "secret_access_key: <set to the key 'secret' in secret 'aws'>"),
    ("aws-access-key-id", "AKIA is a prefix; akiaiosfodnn7example is lower case; AKIAIOSFODNN7EXAMPLEXX is too long"),
    ("aws-session-token", "aws_session_token: ${AWS_SESSION_TOKEN}"),
    ("aws-signature", "X-Amz-SignedHeaders=host and X-Amz-Algorithm=AWS4-HMAC-SHA256"),
    ("aws-credential", "X-Amz-Date=20261202T000000Z"),
    ("gcp-api-key", "AIza is a prefix; AIzaTooShort"),
    ("gcp-oauth-token", "ya29.short"),
    ("gcp-private-key-id", r#""private_key_id": "not-hex""#),
    ("gcp-signature", "X-Goog-SignedHeaders=host"),
    ("gcp-credential", "X-Goog-Date=20261202T000000Z"),
    ("azure-storage-key", "AccountName=models;EndpointSuffix=core.windows.net; AccountKey=short"),
    ("azure-sas-signature", "config=x; design=y; signal=SIGTERM; sigterm sent"),
    ("url-signature", "invalid Signature: bad; SignatureDoesNotMatch"),
    ("github-token", "ghp_ short ghp_abc; github_pat_ too"),
    ("gitlab-token", "glpat- and glpat-short"),
    (
        "huggingface-token",
        "hf_transfer enabled, hf_hub_download failed, HF_HOME=/data, hf_abcdefghijklmnopqrstuvwxyzabcdefgh",
    ),
    ("slack-token", "xoxb- alone, xox-1234567890"),
    ("slack-webhook", "hooks.slack.com/ is the host; https://hooks.slack.com/ down"),
    ("openai-key", "disk-pressure, task-runner-0, sk-worker-0123456789abcdef, sk-learn"),
    ("docker-auth", r#"{"auths":{"nvcr.io":{"username":"$oauthtoken"}}}, "auth": """#),
    (
        "authorization",
        "failed authorization: permission denied; Authorization failed; authorization: Unauthorized; Authorization: AWS <token>",
    ),
    ("bearer-token", "bearer token expired; Bearer authentication required; Bearer <token>; Bearer%20token"),
    (
        "cookie",
        "cookie: session=<jwt>; path=/; Cookie: sid=$SESSION; cookies disabled; cookie jar empty; set-cookie header missing",
    ),
    ("discord-webhook", "https://discord.com/api/webhooks/ alone; /api/webhooks/123 (no token)"),
    ("vault-token", "hvs. alone, hvs.short, hvsx.AbCdEfGhIjKlMnOpQrStUvWxYz"),
    ("npm-token", "npm_config_cache=/tmp/npm, npm_lifecycle_event and npm_package_version_0123456789abcdef0123456"),
    ("connection-string-password", "postgres://db.ml.svc:5432/runs and mysql://db-host/db"),
    (
        "url-credentials",
        "https://registry.example.com/v2/ml/llama and s3://bucket/key; ftp://anonymous@ftp.nvidia.com/pub, ssh://git@github.com/org/repo",
    ),
    (
        "key-value-password",
        "passwordFile: /etc/pw; password authentication failed for user \"app\"; DB_PASSWORD:  <set to the key 'password' in secret 'db'>",
    ),
    (
        "key-value-password",
        "login failed: password: invalid; PASSWORD=$(DB_PASS); password: ***; password=\"{{ .Values.pw }}\"",
    ),
    // Whole `key: value` lines that are placeholders, sizes, numbers or YAML blocks.
    (
        "key-value-password",
        "  password: <redacted>\n  adminPassword: ${ADMIN_PW}\npassword:  16 bytes\n  db-password: |\n  password: true\n  ?password=&x=1",
    ),
    (
        "key-value-secret",
        "secret: kube-root-ca.crt\n  - secret: {secretName: x}\ntoken:     1243 bytes\napikey: 12\n  \"secret\": \"hf-token.v2\"\n  existingSecret: db-creds\n  tls_secret: ingress-tls\nhelm --set auth.existingSecret=db-creds",
    ),
    (
        "password-argument",
        "--password-file /etc/pw --password --user x; Flag --password has been deprecated; mysql -p mydb; mysql -P 3306; docker login -u x --password-stdin; curl -u ops https://x",
    ),
    ("argument-list-secret", "args:\n- --password\n- --verbose\n- --token\n- $(HF_TOKEN)\n- --token-ttl\n- 10m\n"),
    ("secret-argument", "--token-ttl 10m; Flag --token has been deprecated; --token --kubeconfig x; --secret-name x"),
    (
        "key-value-secret",
        "secretName: hf-token; tokenExpirationSeconds: 3600; secretKeyRef: {name: x}; automountServiceAccountToken: false",
    ),
    (
        "key-value-secret",
        "failed to get token: context deadline exceeded; couldn't get secret ml/hf-token: secret \"hf-token\" not found",
    ),
    (
        "key-value-secret",
        "MountVolume.SetUp failed for volume \"default-token-x7k2\" : secret \"default-token-x7k2\" not found; --token-ttl=10m",
    ),
    (
        "env-value",
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}\n- name: MODE\n  value: fast",
    ),
    ("env-value", "- name: HF_TOKEN\n  value: $(HF_TOKEN_FROM_SECRET)"),
    // Found by a review: four-part versions are no addresses.
    ("ipv4", "cuDNN 8.9.7.29, TensorRT 8.6.1.6, version=1.2.3.4, build 10.0.0.1-rc2"),
    ("ngc-api-key", "image nvcr.io/nvapi-proxy:1.0 and pod nvapi-gateway-5d8f7c9b4-x2x9k"),
    ("pypi-token", "pip install pypi-simple and pypi-AgE alone"),
    ("stripe-key", "sk_live_short and task_live_0123456789abcdef0123"),
    ("pem-base64", "LS0tLS1 and the word LS0tLS1CRUd"),
    (
        "email",
        "image nvcr.io/nvidia/cuda@sha256:0123abcd and module example.com/foo@v1.2.3; ftp://anonymous@ftp.nvidia.com",
    ),
    ("aws-account-id", "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"),
    ("aws-instance-id", "gpu-i-12345678, i-12345678-worker, i-am-a-pod"),
    ("aws-resource-id", "sg-gpu-pool, vol-data, subnet-a, nodegroup-sg-12345678-x, fs-1234567"),
    ("azure-subscription", "/subscriptions/ alone"),
    ("gcp-project", "projects/x/ too short"),
    (
        "mac-address",
        "at 10:23:45 and 2026-11-30T05:40:05Z, uid 5f0c2a10-aaaa-4b1e-8c3d-00000000a001, aa:bb:cc:dd:ee:ff:00",
    ),
    ("ipv6", "std::vector; Foo::new; a :: b; 12:34:56"),
    ("ipv4", "kubelet v1.28.3, driver 535.104.05, 1.2.3.4.5, 010.0.0.1, 10.0.0.256"),
];

#[test]
fn every_builtin_rule_has_positive_and_negative_cases() {
    for rule in builtin_rule_names() {
        assert!(POSITIVE.iter().any(|(name, _, _)| *name == rule), "no positive case for {rule}");
        assert!(NEGATIVE.iter().any(|(name, _)| *name == rule), "no negative case for {rule}");
    }
    for (name, _, _) in POSITIVE {
        assert!(builtin_rule_names().any(|rule| rule == *name), "unknown rule {name}");
    }
}

#[test]
fn positive_cases_are_redacted_by_their_rule() {
    let redactor = defaults();
    for (rule, input, expected) in POSITIVE {
        let redacted = redactor.redact_str(input);
        assert_eq!(redacted.text, *expected, "{rule}: {input:?}");
        assert!(redacted.rules.contains(rule), "{rule} did not fire on {input:?}: {:?}", redacted.rules);
    }
}

#[test]
fn negative_cases_are_kept() {
    let redactor = defaults();
    for (rule, input) in NEGATIVE {
        let redacted = redactor.redact_str(input);
        assert_eq!(redacted.text, *input, "{rule} case changed, by {:?}", redacted.rules);
        assert!(matches!(redacted.text, Cow::Borrowed(_)));
    }
}

#[test]
fn documented_examples_are_what_the_rules_do() {
    let redactor = defaults();
    for rule in builtin_rules() {
        let redacted = redactor.redact_str(rule.example);
        assert_eq!(redacted.text, rule.redacted, "the example of {}", rule.name);
        assert!(redacted.rules.contains(&rule.name), "{} did not fire on its example: {:?}", rule.name, redacted.rules);
    }
}

#[test]
fn redacting_twice_changes_nothing() {
    let redactor = defaults();
    let outputs = POSITIVE.iter().map(|(_, _, out)| *out).chain(builtin_rules().map(|rule| rule.redacted));
    for output in outputs {
        let again = redactor.redact_str(output);
        assert_eq!(again.text, output, "redacting {output:?} again, {:?} fired", again.rules);
    }
}

/// Every built-in rule on every line (the PEM rules on the whole text), with no prefilter.
fn unfiltered(redactor: &Redactor, text: &str) -> String {
    let mut text = text.to_owned();
    for (index, builtin) in BUILTINS.iter().enumerate() {
        if matches!(builtin.trigger, rules::Trigger::Multiline(_))
            && let Some((out, _)) = redactor.rules[index].apply(&text)
        {
            text = out;
        }
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let mut line = line.to_owned();
            for (index, builtin) in BUILTINS.iter().enumerate() {
                if !matches!(builtin.trigger, rules::Trigger::Multiline(_))
                    && let Some((out, _)) = redactor.rules[index].apply(&line)
                {
                    line = out;
                }
            }
            line
        })
        .collect();
    lines.join("\n")
}

#[test]
fn the_prefilter_never_hides_a_match() {
    let redactor = defaults();
    let mut texts: Vec<String> = POSITIVE.iter().map(|(_, input, _)| (*input).to_owned()).collect();
    texts.extend(NEGATIVE.iter().map(|(_, input)| (*input).to_owned()));
    texts.extend(builtin_rules().map(|rule| rule.example.to_owned()));
    texts.extend(crate::test_support::cases().into_iter().map(|(_, text)| text));
    // All of them at once, a line each, and glued into one line.
    texts.push(texts.join("\n"));
    texts.push(texts.iter().map(|t| t.replace('\n', " ")).collect::<Vec<_>>().join(" "));
    for text in &texts {
        assert_eq!(redactor.redact_str(text).text, unfiltered(&redactor, text), "{text:?}");
    }
}

#[test]
fn the_rules_markdown_is_current() {
    let committed = include_str!("rules.md");
    assert!(
        committed == builtin_rules_markdown(),
        "src/redact/rules.md is stale; regenerate it with:\n  cargo test -p gpu-events-export --lib -- --ignored write_rules_markdown"
    );
}

#[test]
#[ignore = "writes src/redact/rules.md"]
fn write_rules_markdown() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/redact/rules.md");
    std::fs::write(path, builtin_rules_markdown()).expect("rules.md is written");
}

/// How many built-in markers (`<ipv4>`, `<aws-signature>`) `text` holds.
fn markers_in(text: &str) -> u64 {
    let mut markers: Vec<&str> = BUILTINS.iter().filter_map(|rule| super::marker_of(rule.replacement)).collect();
    markers.sort_unstable();
    markers.dedup();
    markers.iter().map(|marker| text.matches(marker).count() as u64).sum()
}

#[test]
fn a_replacement_replaced_again_is_counted_once() {
    let redactor = defaults();
    // Each line is one secret that two rules match: the outer one's replacement is what is left.
    let text = concat!(
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIAZ7QK3MNB4XRT2PLW/20241102/us-east-1/s3/aws4_request, Signature=fe5f80f7\n",
        "s3://AKIAZ7QK3MNB4XRT2PLW:secretkeysecretkey@bucket/path\n",
        "Set-Cookie: sid=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.x; Path=/\n",
        "key AKIAZ7QK3MNB4XRT2PLW alone\n",
    );
    let mut counts = Counts::default();
    let redacted = redactor.redact_text(text, &mut counts);
    assert_eq!(
        redacted,
        "Authorization: AWS4-HMAC-SHA256 <token>\ns3://<credentials>@bucket/path\nSet-Cookie: sid=<jwt>; Path=/\nkey <aws-access-key-id> alone\n"
    );
    assert_eq!(redactor.summary(&counts), "redacted 4: jwt 1, aws-access-key-id 1, authorization 1, url-credentials 1");
    // In general: as many replacements counted as markers left, on every positive case.
    for (rule, input, _) in POSITIVE.iter().filter(|(_, input, _)| !input.contains('<')) {
        let mut counts = Counts::default();
        let redacted = redactor.redact_text(input, &mut counts);
        assert_eq!(counts.total(), markers_in(&redacted), "{rule}: {input:?} became {redacted:?}, {counts:?}");
    }
}
