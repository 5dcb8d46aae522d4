//! The live service's base URL: where the key goes. Only `http://` and `https://` URLs with
//! a host are accepted; a plain `http://` URL to a host other than this machine sends the
//! key readable by anyone on the way, so a host says so and asks for an explicit
//! confirmation (for that exact URL) before any live call goes there
//! ([`super::Settings::target`] decides with it; the app's Settings page explains with it).

/// What the app makes of a base URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaseUrl {
    /// `https://…`, or `http://` to this machine (localhost, 127.0.0.0/8, `[::1]`).
    Safe,
    /// `http://` to another host: the key would cross the network unencrypted.
    Insecure {
        /// The host named.
        host: String,
    },
    /// Not an http(s) URL with a host: nothing is sent there.
    Invalid(&'static str),
}

/// Classifies `url` (trimmed).
pub fn check(url: &str) -> BaseUrl {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    let (rest, https) = if let Some(r) = lower.strip_prefix("https://") {
        (r, true)
    } else if let Some(r) = lower.strip_prefix("http://") {
        (r, false)
    } else {
        return BaseUrl::Invalid("the base URL must start with https:// (or http://)");
    };
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return BaseUrl::Invalid("the base URL must not contain spaces or backslashes");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return BaseUrl::Invalid("the base URL must not contain a user name or password");
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, _)) => format!("[{h}]"),
            None => return BaseUrl::Invalid("the base URL's host is not valid"),
        }
    } else {
        authority.split(':').next().unwrap_or("").to_string()
    };
    if host.is_empty() || host == "[]" {
        return BaseUrl::Invalid("the base URL has no host");
    }
    if https || is_loopback(&host) {
        BaseUrl::Safe
    } else {
        BaseUrl::Insecure { host }
    }
}

/// True for this machine's names: `localhost` (and `*.localhost`), 127.0.0.0/8, `[::1]`.
pub fn is_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    if host == "localhost" || host.ends_with(".localhost") || host == "[::1]" {
        return true;
    }
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4 && parts[0] == "127" && parts.iter().all(|p| p.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls_with_a_host() {
        for bad in [
            "",
            "ftp://x.com",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "https://",
            "http://user:pw@x.com",
            "https://x.com/a b",
            "data:text/html,x",
            "http://[::1",
        ] {
            assert!(matches!(check(bad), BaseUrl::Invalid(_)), "{bad}");
        }
        assert_eq!(check("https://api.example.com"), BaseUrl::Safe);
        assert_eq!(check(" HTTPS://API.example.com/v1/ "), BaseUrl::Safe);
    }

    #[test]
    fn plain_http_is_safe_only_to_this_machine() {
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:3000/",
            "http://127.5.6.7",
            "http://[::1]:9000",
            "http://app.localhost",
        ] {
            assert_eq!(check(ok), BaseUrl::Safe, "{ok}");
        }
        for (url, host) in [
            ("http://api.example.com", "api.example.com"),
            ("http://192.168.1.5:8080/x", "192.168.1.5"),
            ("http://127.0.0.1.evil.com", "127.0.0.1.evil.com"),
            ("http://localhost.evil.com", "localhost.evil.com"),
            ("http://[2001:db8::1]", "[2001:db8::1]"),
        ] {
            assert_eq!(check(url), BaseUrl::Insecure { host: host.into() }, "{url}");
        }
    }
}
