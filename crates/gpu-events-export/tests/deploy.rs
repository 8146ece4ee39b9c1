//! The manifests in deploy/: the RBAC is least privilege and the Deployment's config is one the
//! exporter reads.

use serde::Deserialize;
use serde_json::Value;

fn documents(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_yaml_ng::Deserializer::from_str(&text).map(|doc| Value::deserialize(doc).unwrap()).collect()
}

fn rules(docs: &[Value], kind: &str, name: &str) -> Vec<(String, String, Vec<String>)> {
    let role = docs.iter().find(|d| d["kind"] == kind && d["metadata"]["name"] == name).unwrap();
    let mut out = Vec::new();
    for rule in role["rules"].as_array().unwrap() {
        for group in rule["apiGroups"].as_array().unwrap() {
            for resource in rule["resources"].as_array().unwrap() {
                let mut verbs: Vec<String> =
                    rule["verbs"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
                verbs.sort();
                out.push((group.as_str().unwrap().to_owned(), resource.as_str().unwrap().to_owned(), verbs));
            }
        }
    }
    out
}

#[test]
fn the_cluster_role_reads_events_and_nothing_else() {
    let docs = documents("rbac.yaml");
    let read = vec!["get".to_owned(), "list".to_owned(), "watch".to_owned()];
    assert_eq!(
        rules(&docs, "ClusterRole", "gpu-events-export"),
        [("".to_owned(), "events".to_owned(), read.clone()), ("events.k8s.io".to_owned(), "events".to_owned(), read)]
    );
    let leases = rules(&docs, "Role", "gpu-events-export-leader");
    assert_eq!(
        leases,
        [("coordination.k8s.io".to_owned(), "leases".to_owned(), vec!["create".into(), "get".into(), "update".into()])]
    );
    for (_, resource, verbs) in rules(&documents("owner-rbac.yaml"), "ClusterRole", "gpu-events-export-owners") {
        assert_eq!(verbs, ["get"], "{resource}");
        assert_ne!(resource, "secrets");
    }
}

#[test]
fn the_deployment_config_is_valid() {
    let docs = documents("deployment.yaml");
    let config_map = docs.iter().find(|d| d["kind"] == "ConfigMap").unwrap();
    let config =
        gpu_events_export::config::ExportConfig::parse(config_map["data"]["config.yaml"].as_str().unwrap()).unwrap();
    assert_eq!(config.sinks.len(), 2);
    let deployment = docs.iter().find(|d| d["kind"] == "Deployment").unwrap();
    let args = &deployment["spec"]["template"]["spec"]["containers"][0]["args"];
    assert_eq!(args[0], "export");
    assert_eq!(deployment["spec"]["template"]["spec"]["serviceAccountName"], "gpu-events-export");
}

#[test]
fn the_example_config_is_valid() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/exporter/config.yaml");
    let config = gpu_events_export::config::ExportConfig::load(&path).unwrap();
    assert_eq!(config.alerts.len(), 3);
    assert_eq!(config.routes.len(), 2);
    assert!(gpu_events_export::Redactor::new(&config.redaction).is_ok());
    let names: Vec<String> = config.sinks.iter().map(|s| s.name()).collect();
    assert!(gpu_events_export::Router::new(&config.routes, &names).is_ok());
    let engine = gpu_events_export::AlertEngine::new(&config.alerts).unwrap();
    assert!(engine.check_sinks(&names).is_ok());
}
