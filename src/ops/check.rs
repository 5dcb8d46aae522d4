//! Request checks shared by the operations: every rejection is a [`RequestError`] naming the
//! field by JSON Pointer (`/keywords/3`).
//!
//! The spec states no request limits ("not shown"). The bounds below are ours, chosen to catch
//! mistakes (a whole file pasted as one keyword, a runaway list) long before a real request
//! would be that large; they are the one place these numbers live.

use std::fmt;

/// Most keywords in one `search_volume/bulk` request (longer lists are split by the client).
pub const MAX_KEYWORDS: usize = 10_000;
/// Most domains or URLs in one `domainstats` or `backlink/metrics` request.
pub const MAX_TARGETS: usize = 1_000;
/// Longest keyword, in characters.
pub const MAX_KEYWORD_CHARS: usize = 512;
/// Longest domain name (DNS limit).
pub const MAX_DOMAIN_CHARS: usize = 253;
/// Longest URL, in characters.
pub const MAX_URL_CHARS: usize = 2_048;

/// A request field that failed its check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError {
    /// JSON Pointer to the field, e.g. `/keywords/3` (empty for the whole body).
    pub field: String,
    /// What is wrong with it.
    pub kind: RequestErrorKind,
}

/// The kinds of request-check failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestErrorKind {
    /// The body is not a JSON object of the operation's shape.
    Malformed(String),
    /// A list that must hold at least one item is empty.
    EmptyList,
    /// A string is empty or only white space.
    EmptyString,
    /// A string holds a control character (a newline, a tab, ...).
    ControlCharacter,
    /// A list holds more items than allowed.
    TooMany {
        /// The limit.
        max: usize,
        /// The list's length.
        got: usize,
    },
    /// A string is longer than allowed (characters).
    TooLong {
        /// The limit.
        max: usize,
        /// The string's length in characters.
        got: usize,
    },
    /// `ccode` is not a two-letter country code.
    CountryCode,
    /// A URL is not an absolute `http://` or `https://` URL with a host.
    NotHttpUrl,
    /// A domain was given as a URL (with a scheme or a path).
    DomainIsUrl,
    /// A domain is not a plausible host name.
    InvalidDomain,
}

impl RequestError {
    pub(crate) fn new(field: impl Into<String>, kind: RequestErrorKind) -> Self {
        RequestError {
            field: field.into(),
            kind,
        }
    }

    /// A stable machine-readable code for the kind (`empty_list`, `country_code`, ...).
    pub fn code(&self) -> &'static str {
        match self.kind {
            RequestErrorKind::Malformed(_) => "malformed",
            RequestErrorKind::EmptyList => "empty_list",
            RequestErrorKind::EmptyString => "empty_string",
            RequestErrorKind::ControlCharacter => "control_character",
            RequestErrorKind::TooMany { .. } => "too_many",
            RequestErrorKind::TooLong { .. } => "too_long",
            RequestErrorKind::CountryCode => "country_code",
            RequestErrorKind::NotHttpUrl => "not_http_url",
            RequestErrorKind::DomainIsUrl => "domain_is_url",
            RequestErrorKind::InvalidDomain => "invalid_domain",
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = if self.field.is_empty() {
            "request"
        } else {
            &self.field
        };
        match &self.kind {
            RequestErrorKind::Malformed(m) => write!(f, "{field}: {m}"),
            RequestErrorKind::EmptyList => write!(f, "{field}: the list is empty"),
            RequestErrorKind::EmptyString => write!(f, "{field}: empty string"),
            RequestErrorKind::ControlCharacter => {
                write!(
                    f,
                    "{field}: contains a control character (newline, tab, ...)"
                )
            }
            RequestErrorKind::TooMany { max, got } => {
                write!(f, "{field}: {got} items, at most {max} allowed")
            }
            RequestErrorKind::TooLong { max, got } => {
                write!(f, "{field}: {got} characters, at most {max} allowed")
            }
            RequestErrorKind::CountryCode => {
                write!(f, "{field}: not a two-letter country code (e.g. \"US\")")
            }
            RequestErrorKind::NotHttpUrl => {
                write!(f, "{field}: not an absolute http:// or https:// URL")
            }
            RequestErrorKind::DomainIsUrl => write!(
                f,
                "{field}: a domain name is expected (example.com), not a URL"
            ),
            RequestErrorKind::InvalidDomain => write!(f, "{field}: not a valid domain name"),
        }
    }
}

impl std::error::Error for RequestError {}

type R = Result<(), RequestError>;

fn text(field: &str, s: &str, max: usize) -> R {
    if s.trim().is_empty() {
        return Err(RequestError::new(field, RequestErrorKind::EmptyString));
    }
    if s.chars().any(char::is_control) {
        return Err(RequestError::new(field, RequestErrorKind::ControlCharacter));
    }
    let n = s.chars().count();
    if n > max {
        return Err(RequestError::new(
            field,
            RequestErrorKind::TooLong { max, got: n },
        ));
    }
    Ok(())
}

fn list<T>(field: &str, items: &[T], max: usize, each: impl Fn(&str, &T) -> R) -> R {
    if items.is_empty() {
        return Err(RequestError::new(field, RequestErrorKind::EmptyList));
    }
    if items.len() > max {
        return Err(RequestError::new(
            field,
            RequestErrorKind::TooMany {
                max,
                got: items.len(),
            },
        ));
    }
    items
        .iter()
        .enumerate()
        .try_for_each(|(i, item)| each(&format!("{field}/{i}"), item))
}

/// A keyword: not blank, no control characters, at most [`MAX_KEYWORD_CHARS`].
pub fn keyword(field: &str, s: &str) -> R {
    text(field, s, MAX_KEYWORD_CHARS)
}

/// A non-empty list of at most [`MAX_KEYWORDS`] keywords.
pub fn keywords(field: &str, items: &[String]) -> R {
    list(field, items, MAX_KEYWORDS, |f, s| keyword(f, s))
}

/// A two-letter country code. The spec shows upper case in requests; lower case is accepted
/// too (the client sends what the caller gave).
pub fn ccode(field: &str, s: &str) -> R {
    if s.len() == 2 && s.bytes().all(|b| b.is_ascii_alphabetic()) {
        Ok(())
    } else {
        Err(RequestError::new(field, RequestErrorKind::CountryCode))
    }
}

/// A bare domain name such as `example.com` or `blog.example.co.uk` (not a URL).
pub fn domain(field: &str, s: &str) -> R {
    text(field, s, MAX_DOMAIN_CHARS)?;
    let err = |kind| Err(RequestError::new(field, kind));
    if s.contains("://") || s.contains('/') || s.contains('?') || s.contains('#') {
        return err(RequestErrorKind::DomainIsUrl);
    }
    let labels_ok = s.split('.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    });
    if !labels_ok || !s.contains('.') {
        return err(RequestErrorKind::InvalidDomain);
    }
    Ok(())
}

/// A non-empty list of at most [`MAX_TARGETS`] domains.
pub fn domains(field: &str, items: &[String]) -> R {
    list(field, items, MAX_TARGETS, |f, s| domain(f, s))
}

/// An absolute `http://` or `https://` URL with a host and no white space.
pub fn url(field: &str, s: &str) -> R {
    text(field, s, MAX_URL_CHARS)?;
    if !is_http_url(s) {
        return Err(RequestError::new(field, RequestErrorKind::NotHttpUrl));
    }
    Ok(())
}

/// A non-empty list of at most [`MAX_TARGETS`] URLs.
pub fn urls(field: &str, items: &[String]) -> R {
    list(field, items, MAX_TARGETS, |f, s| url(f, s))
}

/// True for an absolute `http(s)://host...` URL without white space or control characters.
/// This is the one test of "may become a link" used everywhere (requests, validator, app).
pub fn is_http_url(url: &str) -> bool {
    let lower = url
        .get(..8)
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return false;
    };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..host_end];
    let host = authority.rsplit('@').next().unwrap_or("");
    !host.is_empty()
        && !host.starts_with(':')
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_domains() {
        assert!(is_http_url("https://example.com/a?b#c"));
        assert!(is_http_url("HTTP://Example.com"));
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "ftp://x.com",
            "https://",
            "https:///path",
            "https://a b.com",
            "//example.com",
            "example.com",
        ] {
            assert!(!is_http_url(bad), "{bad}");
        }
        assert!(domain("/d", "blog.example.co.uk").is_ok());
        assert_eq!(
            domain("/d", "https://example.com").unwrap_err().kind,
            RequestErrorKind::DomainIsUrl
        );
        assert_eq!(
            domain("/d", "example.com/path").unwrap_err().kind,
            RequestErrorKind::DomainIsUrl
        );
        assert_eq!(
            domain("/d", "localhost").unwrap_err().kind,
            RequestErrorKind::InvalidDomain
        );
        assert_eq!(
            domain("/d", "a..com").unwrap_err().kind,
            RequestErrorKind::InvalidDomain
        );
    }
}
