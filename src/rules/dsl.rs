//! Declaration helpers, so the per-operation tables read like the spec's tables.

use super::*;
use crate::json::plain_key;

/// A node of `kind` without a description.
const fn node(kind: Kind) -> Node {
    Node {
        kind,
        doc: "",
        #[cfg(not(target_arch = "wasm32"))]
        big: false,
    }
}

/// A string.
pub const STR: Node = node(Kind::Str(&[]));
/// An integer.
pub const INT: Node = node(Kind::Int(&[]));
/// An integer id that may exceed ±(2^53 − 1).
///
/// Decided: of the spec's integers only microblog `profile.user_id` is such an id (a platform's
/// 64-bit user id; real ids are beyond 2^53). Every other integer is a count, a rank, a year, a
/// version or a small enum-like value (`rootVe`) that stays far below 2^53, so it is typed
/// `number` in every `integers` mode and `post.likes + 1` compiles, and the JS package keeps it
/// a number in every mode (a rounded one with an `unsafe_integer` warning, should it ever pass
/// 2^53). Validated as [`INT`].
pub const ID: Node = Node {
    #[cfg(not(target_arch = "wasm32"))]
    big: true,
    ..INT
};
/// A number.
pub const NUM: Node = node(Kind::Num(&[]));
/// A boolean.
pub const BOOL: Node = node(Kind::Bool);
/// Anything.
pub const ANY: Node = node(Kind::Any);
/// An array of anything.
pub const ANY_ARRAY: Node = node(Kind::Array(&Array {
    items: ANY,
    rules: &[],
}));
/// An array of strings.
pub const STR_ARRAY: Node = node(Kind::Array(&Array {
    items: STR,
    rules: &[],
}));

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
        #[cfg(not(target_arch = "wasm32"))]
        doc: "",
    }
}

/// `field` with its description (the TypeScript types show it; the wasm builds drop it).
pub const fn described(field: Field, doc: &'static str) -> Field {
    #[cfg(not(target_arch = "wasm32"))]
    let field = Field { doc, ..field };
    #[cfg(target_arch = "wasm32")]
    let _ = doc;
    field
}
/// A string with rules.
pub const fn string(rules: &'static [StringRule]) -> Node {
    node(Kind::Str(rules))
}
/// A string the spec calls a URL ("post URL", "watch URL", "thumbnail URL", "string URL").
///
/// Decided: the spec names what these strings point to but states no syntax, and every URL it
/// shows is absolute http(s); one that does not start with `http` is a `prefix` warning (the
/// app shows such a value as text, never as a link), not an error.
pub const URL: Node = string(&[StringRule::Prefix("http", Severity::Warning)]);

/// An integer with rules.
pub const fn int(rules: &'static [NumberRule]) -> Node {
    node(Kind::Int(rules))
}
/// A number with rules.
pub const fn num(rules: &'static [NumberRule]) -> Node {
    node(Kind::Num(rules))
}
/// A range rule.
pub const fn range(min: f64, max: f64, severity: Severity) -> NumberRule {
    NumberRule { min, max, severity }
}
/// An array node.
pub const fn array(array: &'static Array) -> Node {
    node(Kind::Array(array))
}
/// An object node.
pub const fn object(object: &'static Object) -> Node {
    node(Kind::Object(object))
}
/// An anonymous object of known fields, no checks (a response record is declared with
/// `ops::record!`, which names it).
pub const fn fields(fields: &'static [Field]) -> Object {
    Object {
        fields,
        extra: None,
        checks: &[],
        echoes: &[],
        #[cfg(not(target_arch = "wasm32"))]
        name: "",
        #[cfg(not(target_arch = "wasm32"))]
        doc: "",
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

// ---- Rules relating a response to its request (see `echo.rs`) --------------------------

/// As many elements as the request's list `list` has items (error `record_count`, or a
/// warning where the spec only implies it).
pub const fn count_equals_request(list: &'static str, severity: Severity) -> ArrayRule {
    ArrayRule::Count(Count {
        request: list,
        severity,
        code: RuleCode::RecordCount,
    })
}

/// Each element's `field` matches the request list `list`'s items as `how` says:
/// [`Match::At`], element `i` the item `i` (one record per item, in request order), or
/// [`Match::AnyOf`], one of the items (no order stated). Another `how` is refused when the
/// declaration is compiled (those relate other values: [`same_as_request`],
/// [`first_is_request_keyword`]). `severity`: an error where the spec states the relation, a
/// warning where it only implies it.
pub const fn echoes_request_items(
    field: &'static str,
    list: &'static str,
    how: Match,
    compare: Compare,
    code: RuleCode,
    severity: Severity,
) -> ArrayRule {
    assert!(
        matches!(how, Match::At | Match::AnyOf),
        "an element's field echoes a request list's items at its index or anywhere"
    );
    ArrayRule::Echo(Echo {
        field: Some(field),
        request: list,
        how,
        compare,
        severity,
        code,
    })
}

/// The array of strings starts with the request's `request` field, as [`same_keyword`]
/// compares (error `request_keyword`).
pub const fn first_is_request_keyword(request: &'static str) -> ArrayRule {
    ArrayRule::Echo(Echo {
        field: None,
        request,
        how: Match::First,
        compare: Compare::Keyword,
        severity: Severity::Error,
        code: RuleCode::RequestKeyword,
    })
}

/// An object's `field` matches the request's string field `request` (for [`Object::echoes`]).
pub const fn same_as_request(
    field: &'static str,
    request: &'static str,
    compare: Compare,
    code: RuleCode,
) -> Echo {
    Echo {
        field: Some(field),
        request,
        how: Match::Same,
        compare,
        severity: Severity::Error,
        code,
    }
}

/// An object's `field` is the request's keyword `request` ([`same_keyword`], error
/// `request_keyword`).
pub const fn same_keyword_as_request(field: &'static str, request: &'static str) -> Echo {
    same_as_request(field, request, Compare::Keyword, RuleCode::RequestKeyword)
}
