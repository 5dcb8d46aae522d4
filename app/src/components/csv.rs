//! CSV export: RFC 4180 quoting, a guard against spreadsheet formulas in text cells, and a
//! browser download.

use wasm_bindgen::JsCast;

/// A text cell made safe for spreadsheets: text starting with `=`, `+`, `-`, `@`, tab or
/// carriage return gets a leading `'` so it is never run as a formula.
pub fn text_cell(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV text: a header line, then one line per row (CRLF line ends).
pub fn to_csv(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut out = header
        .iter()
        .map(|h| quote(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for row in rows {
        out.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

/// Offers `content` as a file download named `filename`.
pub fn download(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "could not create the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "could not create a download link")?;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| "no anchor")?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(filename);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
        a.click();
        let _ = body.remove_child(&a);
    }
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_formulas() {
        let csv = to_csv(&["a", "b"], vec![vec!["x,y".into(), "say \"hi\"".into()]]);
        assert_eq!(csv, "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n");
        assert_eq!(text_cell("=cmd()"), "'=cmd()");
        assert_eq!(text_cell("shoes"), "shoes");
    }
}
