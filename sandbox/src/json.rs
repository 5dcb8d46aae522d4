//! A minimal streaming JSON writer: fields come out in exactly the order written (the video
//! channel's key order varies on purpose), and large bodies are built without an
//! intermediate tree.

use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub(crate) fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends a finite float as a JSON number that always reads as a float (`1.0`, `0.37`).
pub(crate) fn push_float(out: &mut String, v: f64) {
    let v = if v.is_finite() { v } else { 0.0 };
    let start = out.len();
    let _ = write!(out, "{v}");
    if !out[start..].contains(['.', 'e', 'E']) {
        out.push_str(".0");
    }
}

/// Writes one JSON object's members.
pub(crate) struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl Obj<'_> {
    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        push_str(self.out, k);
        self.out.push(':');
    }
    /// A string member.
    pub fn s(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        push_str(self.out, v);
        self
    }
    /// An integer member.
    pub fn i(&mut self, k: &str, v: i64) -> &mut Self {
        self.key(k);
        let _ = write!(self.out, "{v}");
        self
    }
    /// A float member.
    pub fn f(&mut self, k: &str, v: f64) -> &mut Self {
        self.key(k);
        push_float(self.out, v);
        self
    }
    /// A boolean member.
    pub fn b(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k);
        self.out.push_str(if v { "true" } else { "false" });
        self
    }
    /// An object member.
    pub fn o(&mut self, k: &str, f: impl FnOnce(&mut Obj<'_>)) -> &mut Self {
        self.key(k);
        obj(self.out, f);
        self
    }
    /// An array member.
    pub fn a(&mut self, k: &str, f: impl FnOnce(&mut Arr<'_>)) -> &mut Self {
        self.key(k);
        arr(self.out, f);
        self
    }
    /// An array-of-strings member.
    pub fn strs<S: AsRef<str>>(&mut self, k: &str, items: &[S]) -> &mut Self {
        self.a(k, |a| {
            for s in items {
                a.s(s.as_ref());
            }
        })
    }
}

/// Writes one JSON array's elements.
pub(crate) struct Arr<'a> {
    out: &'a mut String,
    first: bool,
}

impl Arr<'_> {
    fn sep(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
    }
    /// A string element.
    pub fn s(&mut self, v: &str) -> &mut Self {
        self.sep();
        push_str(self.out, v);
        self
    }
    /// An object element.
    pub fn o(&mut self, f: impl FnOnce(&mut Obj<'_>)) -> &mut Self {
        self.sep();
        obj(self.out, f);
        self
    }
}

/// Appends a JSON object written by `f`.
pub(crate) fn obj(out: &mut String, f: impl FnOnce(&mut Obj<'_>)) {
    out.push('{');
    let mut o = Obj { out, first: true };
    f(&mut o);
    o.out.push('}');
}

/// Appends a JSON array written by `f`.
pub(crate) fn arr(out: &mut String, f: impl FnOnce(&mut Arr<'_>)) {
    out.push('[');
    let mut a = Arr { out, first: true };
    f(&mut a);
    a.out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_valid_json() {
        let mut s = String::new();
        obj(&mut s, |o| {
            o.s("a\"", "x\n\u{1}y")
                .i("n", -3)
                .f("f", 1.0)
                .f("g", 0.25)
                .b("t", true);
            o.a("l", |a| {
                a.s("q").s("2").o(|o| {
                    o.strs("e", &[] as &[&str]);
                });
            });
        });
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a\""], "x\n\u{1}y");
        assert!(s.contains("\"f\":1.0"));
        assert_eq!(v["l"][2]["e"], serde_json::json!([]));
    }
}
