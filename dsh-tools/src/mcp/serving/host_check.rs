//! The `Host` check of the streamable HTTP server (the DNS-rebinding defence), made with the
//! allowed hosts read once, when the server starts.
//!
//! rmcp's service makes the same check, but reads every allowed host again for each request
//! (each parsed as an authority, its name copied and lowercased): about 5,000 instructions per
//! request with the three loopback names, more than a served call's own handling. The server
//! therefore asks rmcp for no host list and checks here, before rmcp sees the request, with
//! rmcp's rules: an allowed host is an authority (`name` or `name:port`; one that does not parse
//! as one is taken whole as a name), names compare without brackets and case, an allowed host
//! without a port admits any port, and an empty list admits every host. A request whose `Host`
//! does not parse is passed on: rmcp still reads its `Host` first and refuses it with 400, as it
//! did before any host was compared.

use hyper::HeaderMap;
use hyper::Uri;
use hyper::http::uri::Authority;

/// The loopback names a server admits unless told otherwise (rmcp's default list).
pub(crate) const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A host as compared: its name without brackets, in lower case, and its port if it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NormalizedHost {
    name: String,
    port: Option<u16>,
}

impl NormalizedHost {
    fn new(name: &str, port: Option<u16>) -> Self {
        Self {
            name: name
                .trim_matches('[')
                .trim_matches(']')
                .to_ascii_lowercase(),
            port,
        }
    }

    /// An allowed host as configured; `None` for a blank one, which admits nothing.
    fn allowed(configured: &str) -> Option<Self> {
        let configured = configured.trim();
        if configured.is_empty() {
            return None;
        }
        Some(match Authority::try_from(configured) {
            Ok(authority) => Self::new(authority.host(), authority.port_u16()),
            Err(_) => Self::new(configured, None),
        })
    }

    /// Whether this allowed host admits a request for `name` (normalized) on `port`.
    fn admits(&self, name: &[u8], port: Option<u16>) -> bool {
        self.name.as_bytes() == name && self.port.is_none_or(|allowed| port == Some(allowed))
    }
}

/// The hosts a server admits, read once.
#[derive(Clone, Debug)]
pub(crate) struct AllowedHosts {
    /// `None`: every host (an empty list was configured).
    hosts: Option<Vec<NormalizedHost>>,
}

impl AllowedHosts {
    /// The hosts of `configured`; an empty list admits every host.
    pub(crate) fn new(configured: &[String]) -> Self {
        Self {
            hosts: (!configured.is_empty()).then(|| {
                configured
                    .iter()
                    .filter_map(|host| NormalizedHost::allowed(host))
                    .collect()
            }),
        }
    }

    /// Whether a request for `uri` with `headers` is refused for its host: `false` when the host
    /// is admitted, and when it cannot be read (rmcp refuses that one itself, with 400).
    pub(crate) fn refuses(&self, uri: &Uri, headers: &HeaderMap) -> bool {
        let Some(hosts) = &self.hosts else {
            return false;
        };
        let Some(host) = headers.get(hyper::header::HOST) else {
            // Without a `Host`, rmcp reads the request's authority (HTTP/2's `:authority`).
            let Some(authority) = uri.authority() else {
                return false;
            };
            let host = NormalizedHost::new(authority.host(), authority.port_u16());
            return refused(hosts, host.name.as_bytes(), host.port, authority.as_str());
        };
        // A plain host is read from the header's bytes as they are: its bytes are ASCII, so it
        // needs no check as text first.
        if let Some((name, port)) = simple_host(host.as_bytes()) {
            return refused(hosts, name, port, host);
        }
        let Ok(host) = host.to_str() else {
            return false;
        };
        let Ok(authority) = Authority::try_from(host) else {
            return false;
        };
        let normalized = NormalizedHost::new(authority.host(), authority.port_u16());
        refused(hosts, normalized.name.as_bytes(), normalized.port, host)
    }
}

/// Whether none of `hosts` admits `name` on `port` (logged, with the host as the request wrote
/// it, when so).
fn refused(
    hosts: &[NormalizedHost],
    name: &[u8],
    port: Option<u16>,
    written: &(impl AsRef<[u8]> + ?Sized),
) -> bool {
    let refused = !hosts.iter().any(|allowed| allowed.admits(name, port));
    if refused {
        tracing::warn!(
            host = %String::from_utf8_lossy(written.as_ref()),
            "rejected request with disallowed Host header (possible DNS rebinding attempt)",
        );
    }
    refused
}

/// Which bytes a plain host name is made of: lowercase letters, digits, dots and hyphens (one
/// lookup per byte of every request's `Host`).
const PLAIN_NAME_BYTES: [bool; 256] = {
    let mut plain = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        plain[byte] = matches!(byte as u8, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-');
        byte += 1;
    }
    plain
};

/// The name and port of a `Host` written the plain way clients write it — a name of lowercase
/// letters, digits, dots and hyphens, then maybe `:` and at most five digits that make a port —
/// read without building an authority (which copies the text and scans it several times). Such
/// a host parses as an authority with exactly that name and port, and is already normalized;
/// anything else (`None`) goes the long way. One pass over the text: the name's bytes, then the
/// port's digits, read as they are checked (every request's `Host` goes through here).
fn simple_host(host: &[u8]) -> Option<(&[u8], Option<u16>)> {
    let end = host
        .iter()
        .position(|&byte| !PLAIN_NAME_BYTES[usize::from(byte)])
        .unwrap_or(host.len());
    if end == 0 {
        return None;
    }
    let (name, rest) = host.split_at(end);
    let port = match rest {
        [] => None,
        [b':', digits @ ..] if (1..=5).contains(&digits.len()) => {
            let mut port: u32 = 0;
            for &digit in digits {
                if !digit.is_ascii_digit() {
                    return None;
                }
                port = port * 10 + u32::from(digit - b'0');
            }
            Some(u16::try_from(port).ok()?)
        }
        _ => return None,
    };
    Some((name, port))
}

#[cfg(test)]
mod tests {
    use super::{AllowedHosts, LOOPBACK_HOSTS, simple_host};
    use hyper::header::{HOST, HeaderValue};
    use hyper::{HeaderMap, Uri};

    fn loopback() -> AllowedHosts {
        AllowedHosts::new(&LOOPBACK_HOSTS.map(str::to_owned))
    }

    fn refuses(hosts: &AllowedHosts, host: &str) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_str(host).expect("a header value"));
        hosts.refuses(&Uri::from_static("/mcp"), &headers)
    }

    #[test]
    fn loopback_names_on_any_port_are_admitted() {
        let hosts = loopback();
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:3000",
            "LOCALHOST:3000",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(!refuses(&hosts, host), "{host}");
        }
    }

    #[test]
    fn other_hosts_are_refused() {
        let hosts = loopback();
        for host in [
            "evil.example",
            "evil.example:8080",
            "127.0.0.2:8080",
            "localhost.evil.example",
            "[::2]:80",
        ] {
            assert!(refuses(&hosts, host), "{host}");
        }
    }

    #[test]
    fn an_allowed_port_must_match() {
        let hosts = AllowedHosts::new(&["api.example:8443".to_owned()]);
        assert!(!refuses(&hosts, "api.example:8443"));
        assert!(!refuses(&hosts, "API.example:8443"));
        assert!(refuses(&hosts, "api.example:8080"));
        assert!(refuses(&hosts, "api.example"));
    }

    #[test]
    fn an_empty_list_admits_every_host_and_a_blank_one_none() {
        assert!(!refuses(&AllowedHosts::new(&[]), "evil.example"));
        assert!(refuses(&AllowedHosts::new(&[" ".to_owned()]), "localhost"));
    }

    #[test]
    fn a_host_that_is_no_authority_is_left_to_rmcp() {
        // rmcp reads the `Host` first and answers 400; refusing it here would answer 403.
        assert!(!refuses(&loopback(), "bad host"));
        assert!(!refuses(&loopback(), "localhost:99999"));
        assert!(!loopback().refuses(&Uri::from_static("/mcp"), &HeaderMap::new()));
    }

    #[test]
    fn without_a_host_the_authority_of_the_request_is_checked() {
        let hosts = loopback();
        let headers = HeaderMap::new();
        assert!(!hosts.refuses(&Uri::from_static("http://127.0.0.1:8080/mcp"), &headers));
        assert!(hosts.refuses(&Uri::from_static("http://evil.example/mcp"), &headers));
    }

    #[test]
    fn the_plain_reading_agrees_with_the_authority() {
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "a-b.example:1",
            "x:0",
            "x:00080",
            "x:65535",
        ] {
            let authority = hyper::http::uri::Authority::try_from(host).expect("an authority");
            assert_eq!(
                simple_host(host.as_bytes()),
                Some((authority.host().as_bytes(), authority.port_u16())),
                "{host}"
            );
        }
        for host in [
            "Localhost",
            "[::1]:80",
            "x:65536",
            "x:",
            "x:1a",
            ":80",
            "a_b",
            "x:123456",
        ] {
            assert_eq!(simple_host(host.as_bytes()), None, "{host}");
        }
    }
}
