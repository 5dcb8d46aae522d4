//! Which browser origins may use the server: loopback ones, plus `--allow-origin`.
//!
//! The sandbox is a local dev tool: a web page visited while it runs must not be able to
//! spend with it or read its ledger. CORS headers are sent only to allowed origins (the
//! `Origin` echoed, with `Vary: Origin`); a POST carrying any other `Origin` is refused
//! with 403 (a page that reaches the server through DNS rebinding is same-origin for the
//! browser, so CORS alone would not stop it).

/// The CORS policy of one server.
#[derive(Clone, Debug, Default)]
pub struct Cors {
    any: bool,
    extra: Vec<String>,
}

impl Cors {
    /// Loopback origins plus `allow` (`*` allows any origin).
    pub fn new(allow: &[String]) -> Cors {
        Cors {
            any: allow.iter().any(|o| o.trim() == "*"),
            extra: allow
                .iter()
                .map(|o| normalise(o))
                .filter(|o| o != "*")
                .collect(),
        }
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`; `None` when
    /// the origin is not allowed (no CORS headers).
    pub fn allow(&self, origin: &str) -> Option<String> {
        if self.any {
            return Some("*".into());
        }
        let o = normalise(origin);
        (is_loopback(&o) || self.extra.contains(&o)).then(|| origin.trim().to_owned())
    }
}

fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// `http(s)://localhost[:port]`, `http(s)://127.x.x.x[:port]` and `http(s)://[::1][:port]`.
pub fn is_loopback(origin: &str) -> bool {
    let o = normalise(origin);
    let Some(rest) = o
        .strip_prefix("http://")
        .or_else(|| o.strip_prefix("https://"))
    else {
        return false;
    };
    let split = if rest.starts_with('[') {
        rest.find(']').map(|end| rest.split_at(end + 1))
    } else {
        Some(rest.split_at(rest.find(':').unwrap_or(rest.len())))
    };
    let Some((host, port)) = split else {
        return false;
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|p| {
            !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
        });
    port_ok
        && (host == "localhost"
            || host == "[::1]"
            || host
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.octets()[0] == 127))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins() {
        for o in [
            "http://localhost",
            "http://localhost:5173",
            "https://LOCALHOST:8443/",
            "http://127.0.0.1:8080",
            "http://127.1.2.3",
            "http://[::1]:3000",
        ] {
            assert!(is_loopback(o), "{o}");
        }
        for o in [
            "null",
            "",
            "http://localhost.evil.example",
            "http://evil.example",
            "http://127.0.0.1.evil.example",
            "http://128.0.0.1",
            "file://localhost",
            "http://localhost:80/path",
            "http://localhost:x",
            "http://[::2]:80",
            "http://user@localhost",
        ] {
            assert!(!is_loopback(o), "{o}");
        }
        let c = Cors::new(&["https://app.example.com/".into()]);
        assert_eq!(
            c.allow("https://app.example.com").as_deref(),
            Some("https://app.example.com")
        );
        assert_eq!(c.allow("https://evil.example.com"), None);
        assert_eq!(
            Cors::new(&["*".into()]).allow("https://x.y").as_deref(),
            Some("*")
        );
    }
}
