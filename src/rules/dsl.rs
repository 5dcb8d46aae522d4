//! Declaration helpers, so the per-operation tables read like the spec's tables.

use super::*;
use crate::json::plain_key;

/// A string.
pub const STR: Node = Node {
    kind: Kind::Str(&[]),
    doc: "",
};
/// An integer.
pub const INT: Node = Node {
    kind: Kind::Int(&[]),
    doc: "",
};
/// A number.
pub const NUM: Node = Node {
    kind: Kind::Num(&[]),
    doc: "",
};
/// A boolean.
pub const BOOL: Node = Node {
    kind: Kind::Bool,
    doc: "",
};
/// Anything.
pub const ANY: Node = Node {
    kind: Kind::Any,
    doc: "",
};
/// An array of anything.
pub const ANY_ARRAY: Node = Node {
    kind: Kind::Array(&Array {
        items: ANY,
        rules: &[],
    }),
    doc: "",
};
/// An array of strings.
pub const STR_ARRAY: Node = Node {
    kind: Kind::Array(&Array {
        items: STR,
        rules: &[],
    }),
    doc: "",
};

/// A required field. The name may not hold a quote, a backslash or a control character
/// (checked when the declaration is compiled): the validator matches keys against it
/// byte for byte.
pub const fn req(name: &'static str, node: Node) -> Field {
    field(name, node, true)
}
/// An optional field (the name as for [`req`]).
pub const fn opt(name: &'static str, node: Node) -> Field {
    field(name, node, false)
}

/// A field whose name is checked when the declaration is compiled ([`req`], [`opt`]).
const fn field(name: &'static str, node: Node, required: bool) -> Field {
    assert!(
        plain_key(name),
        "a field name may not hold `\"`, `\\` or a control character"
    );
    Field {
        name,
        node,
        required,
    }
}
/// A string with rules.
pub const fn string(rules: &'static [StringRule]) -> Node {
    Node {
        kind: Kind::Str(rules),
        doc: "",
    }
}
/// A string the spec calls a URL ("post URL", "watch URL", "thumbnail URL", "string URL").
///
/// Decided: the spec names what these strings point to but states no syntax, and every URL it
/// shows is absolute http(s); one that does not start with `http` is a `prefix` warning (the
/// app shows such a value as text, never as a link), not an error.
pub const URL: Node = string(&[StringRule::Prefix("http", Severity::Warning)]);

/// An integer with rules.
pub const fn int(rules: &'static [NumberRule]) -> Node {
    Node {
        kind: Kind::Int(rules),
        doc: "",
    }
}
/// A number with rules.
pub const fn num(rules: &'static [NumberRule]) -> Node {
    Node {
        kind: Kind::Num(rules),
        doc: "",
    }
}
/// A range rule.
pub const fn range(min: f64, max: f64, severity: Severity) -> NumberRule {
    NumberRule { min, max, severity }
}
/// An array node.
pub const fn array(array: &'static Array) -> Node {
    Node {
        kind: Kind::Array(array),
        doc: "",
    }
}
/// An object node.
pub const fn object(object: &'static Object) -> Node {
    Node {
        kind: Kind::Object(object),
        doc: "",
    }
}
/// An object of known fields, no checks.
pub const fn fields(fields: &'static [Field]) -> Object {
    Object {
        fields,
        extra: None,
        checks: &[],
    }
}
/// `first` followed by `second`, as an array of exactly `N` fields
/// (`N` = `first.len() + second.len()`,
/// checked at compile time).
pub const fn concat<const N: usize>(first: &[Field], second: &[Field]) -> [Field; N] {
    assert!(first.len() + second.len() == N, "concat: wrong N");
    let mut out = [req("", ANY); N];
    let mut i = 0;
    while i < first.len() {
        out[i] = first[i];
        i += 1;
    }
    let mut j = 0;
    while j < second.len() {
        out[i + j] = second[j];
        j += 1;
    }
    out
}
/// Attaches a description.
pub const fn doc(mut node: Node, doc: &'static str) -> Node {
    node.doc = doc;
    node
}
