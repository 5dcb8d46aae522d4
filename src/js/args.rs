//! A JS call's arguments as core types (wasm only): the operation a JS value names and its
//! request, for the exports (`exports`) and the `Client`'s calls (`client`) alike.

use wasm_bindgen::prelude::*;

use super::errors::{operation_named, request_error};
use super::text::text_of;
use crate::ops::{Operation, Request};

/// The operation a JS argument names.
pub(super) fn parse_operation(operation: &JsValue) -> Result<Operation, JsValue> {
    Ok(operation_named(operation.as_string())?)
}

/// The request of `operation` from JSON text, bytes or a JS value.
pub(super) fn parse_request(operation: Operation, request: &JsValue) -> Result<Request, JsValue> {
    let text = text_of(request, "request")?;
    Request::from_json(operation, &text).map_err(|error| request_error(&error))
}
