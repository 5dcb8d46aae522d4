//! The sandbox: a deterministic, spec-conformant stand-in for the service (filled by its own
//! issue).
