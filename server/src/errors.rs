//! The error shape every answer of the server uses, the service's own as the sandbox writes
//! it: `{"error":{"code":…,"message":…,"field":…}}`. Its own module, below both [`crate::buy`]
//! (which answers upstream failures in it) and [`crate::http`] (every other refusal); and
//! errors written with their causes ([`cause`]).

/// The error body: `{"error":{"code":…,"message":…,"field":…}}`.
pub fn error_body(code: &str, message: &str, field: Option<&str>) -> String {
    let mut error = serde_json::json!({ "code": code, "message": message });
    if let Some(f) = field {
        error["field"] = f.into();
    }
    serde_json::json!({ "error": error }).to_string()
}

/// An error and its causes, outermost first (`db error: ERROR: duplicate key value …`, where
/// tokio-postgres alone says `db error`): what logs and an operator's messages show.
pub fn cause(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let next = s.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = s.source();
    }
    text
}
