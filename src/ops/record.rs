//! `record!`: a response record declared once. One list of fields gives the serde struct
//! (Rust users, lenient decoding), its rules `Object` (the validator, the JSON Schema, the
//! generated JS validators) and its TypeScript interface (`ops::typescript`, written into the
//! JS package's `serpkit_types.d.ts`), so the three cannot drift apart.
//!
//! ```ignore
//! record! {
//!     /// Related keyword record.                      <- the struct's doc (and the TS one)
//!     pub struct RelatedKeyword {
//!         /// The keyword.                              <- the field's doc (and the TS one)
//!         req keyword: String = STR,
//!         /// Competition, observed 0 to 1.
//!         req competition: f64 = num(&[range(0.0, 1.0, Warning)]),
//!         /// Country code.
//!         req "AVERAGE_CPC" average_cpc: f64 = NUM,    <- a JSON name unlike the Rust one
//!         opt "domainAsEntered" domain_as_entered: Option<String> = STR,
//!     }
//!     /// Shape of a related keyword record: ...       <- the rules' doc (decisions)
//!     pub const RELATED_KEYWORD: Object { checks: &[named!(check, CHECK_JS)] };
//! }
//! ```
//!
//! `req` / `opt` are the rule language's required and optional fields (an `opt` field is an
//! `Option`, left out when absent); the node after `=` is the field's rule. Each field's type
//! says how it decodes ([`super::lenient::Lenient`]) and must hold what its rule declares (a
//! string rule on an `i64` is a compile error). `..base: Base,` first flattens another
//! record's fields into this one (serde `flatten`, its rules first). The `Object` may set
//! `extra`, `checks` and `echoes` (defaults: none).

/// Declares a response record: its struct, its rules and its TS name (module docs).
macro_rules! record {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $(.. $flat:ident: $flat_ty:ident,)?
            $(
                $(#[doc = $fdoc:literal])*
                $kind:ident $($json:literal)? $field:ident: $ty:ty = $node:expr,
            )+
        }
        $(#[doc = $rdoc:literal])*
        pub const $rules:ident: Object $({ $($key:ident: $value:expr),* $(,)? })?;
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            $(
                #[doc = concat!("The [`", stringify!($flat_ty), "`] fields, flattened into this record.")]
                #[serde(flatten)]
                pub $flat: $flat_ty,
            )?
            $(
                $(#[doc = $fdoc])*
                #[serde(
                    $(rename = $json,)?
                    default,
                    deserialize_with = "crate::ops::lenient::Lenient::read",
                    skip_serializing_if = "crate::ops::lenient::Lenient::absent"
                )]
                pub $field: $ty,
            )+
        }

        impl $name {
            /// The record's fields and their rules, in declaration order (a flattened
            /// record's first).
            pub const FIELDS: [$crate::rules::Field; $crate::ops::record::or_default!($($flat_ty::FIELDS.len())?; 0)
                + [$(stringify!($field)),+].len()] = $crate::rules::dsl::concat(
                $crate::ops::record::or_default!($(&$flat_ty::FIELDS)?; &[]),
                &[$(
                    $crate::rules::dsl::described(
                        $crate::rules::dsl::$kind($crate::ops::record::json_name!($field $(, $json)?), $node),
                        concat!($($fdoc, "\n"),*),
                    ),
                )+],
            );
        }

        // Each field's type holds what its rule declares, and `opt` fields are `Option`s.
        const _: () = {
            $({
                const NODE: $crate::rules::Node = $node;
                assert!(
                    <$ty as $crate::ops::lenient::Lenient>::SHAPE.fits(&NODE),
                    concat!(stringify!($name), ".", stringify!($field), ": its type does not hold what its rule declares")
                );
                assert!(
                    <$ty as $crate::ops::lenient::Lenient>::OPTIONAL
                        == !$crate::rules::dsl::$kind("", NODE).required,
                    concat!(stringify!($name), ".", stringify!($field), ": `opt` fields are `Option`s, `req` fields are not")
                );
            })+
        };

        impl $crate::ops::lenient::Lenient for $name {
            const SHAPE: $crate::ops::lenient::Shape = $crate::ops::lenient::Shape::Record;
            #[inline(always)]
            fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <Self as serde::Deserialize>::deserialize(deserializer)
            }
        }

        impl $crate::ops::lenient::Lenient for Vec<$name> {
            const SHAPE: $crate::ops::lenient::Shape = $crate::ops::lenient::Shape::List;
            #[inline(always)]
            fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::ops::lenient::list(deserializer)
            }
        }

        impl $crate::ops::lenient::Lenient for Option<$name> {
            const SHAPE: $crate::ops::lenient::Shape = $crate::ops::lenient::Shape::Record;
            const OPTIONAL: bool = true;
            #[inline(always)]
            fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <Self as serde::Deserialize>::deserialize(deserializer)
            }
            #[inline(always)]
            fn absent(&self) -> bool {
                self.is_none()
            }
        }

        $(#[doc = $rdoc])*
        pub const $rules: $crate::rules::Object = $crate::rules::Object {
            $($($key: $value,)*)?
            ..$crate::ops::record::named(
                &$name::FIELDS,
                stringify!($name),
                concat!($($doc, "\n"),*),
            )
        };
    };
}
pub(crate) use record;

/// A field's JSON name: the one given, else the Rust name.
macro_rules! json_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $json:literal) => {
        $json
    };
}
pub(crate) use json_name;

/// The expression given, else the default.
macro_rules! or_default {
    (; $default:expr) => {
        $default
    };
    ($value:expr; $default:expr) => {
        $value
    };
}
pub(crate) use or_default;

/// A record's rules: its fields, no extra keys, no checks, with its name and doc (native
/// only, for the TypeScript types).
pub const fn named(
    fields: &'static [crate::rules::Field],
    name: &'static str,
    doc: &'static str,
) -> crate::rules::Object {
    #[cfg(target_arch = "wasm32")]
    let _ = (name, doc);
    crate::rules::Object {
        fields,
        extra: None,
        checks: &[],
        echoes: &[],
        #[cfg(not(target_arch = "wasm32"))]
        name,
        #[cfg(not(target_arch = "wasm32"))]
        doc,
    }
}
