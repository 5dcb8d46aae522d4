//! A scraped heading as people read it. The service sends heading text as it was scraped
//! ("may contain stray markup or style text scraped from the page", spec): the outline shows
//! [`clean_heading`] of it, and exports keep the text as it came beside the clean one.
//!
//! Decided (the spec names no rule): what is dropped is markup (`<tag …>`, `</tag>`,
//! `<!-- … -->`, and the whole of `<style>`/`<script>` elements), CSS rules (a block
//! `{…}` holding a `property:value`, with its selector: the run of text before it up to white
//! space, or from an `@` at-rule's start) and invisible characters (zero-width spaces and
//! joiners, the byte-order mark); entities are then decoded (named ones common in headings,
//! and every numeric one), and white space (the no-break space included) is collapsed and
//! trimmed. A `<` not starting a tag ("a < b") and braces without a declaration inside
//! ("{size} guide") stay text. The result is plain text, still rendered as text, never HTML.

/// `heading` without markup, style text or invisible characters, its entities decoded and
/// its white space collapsed; empty when nothing readable was in it.
pub fn clean_heading(heading: &str) -> String {
    let no_markup = drop_markup(heading);
    let no_style = drop_css_rules(&no_markup);
    let decoded = decode_entities(&no_style);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded
        .split(|c: char| c.is_whitespace())
        .map(|w| w.replace(INVISIBLE, ""))
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

/// Characters that show nothing: zero-width space, non-joiner, joiner, word joiner, BOM.
const INVISIBLE: [char; 5] = ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'];

/// Elements whose content is code, not text: dropped with their tags.
const CODE_ELEMENTS: [&str; 2] = ["style", "script"];

/// Drops comments, tags, and `<style>`/`<script>` elements with their content.
fn drop_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(comment) = tail.strip_prefix("<!--") {
            // An unclosed comment runs to the end, as in a browser.
            rest = comment.find("-->").map_or("", |j| &comment[j + 3..]);
            continue;
        }
        let next = tail[1..].chars().next();
        let is_tag = next.is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        let Some(end) = tag_end(tail).filter(|_| is_tag) else {
            // Not a tag ("a < b", or a `<` never closed): text.
            out.push('<');
            rest = &tail[1..];
            continue;
        };
        let name: String = tail[1..end]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        rest = &tail[end + 1..];
        if CODE_ELEMENTS.contains(&name.as_str()) {
            rest = after_closing_tag(rest, &name).unwrap_or("");
        } else if name == "a" {
            // A permalink mark ("#", "¶"): a link whose text has no letter or digit.
            let close = rest.to_ascii_lowercase().find("</a");
            if let Some(j) = close.filter(|&j| !rest[..j].chars().any(char::is_alphanumeric)) {
                if let Some(after) = after_closing_tag(&rest[j..], "a") {
                    rest = after;
                }
            }
        }
        // A tag between two words separates them ("Best<br>shoes").
        out.push(' ');
    }
    out.push_str(rest);
    out
}

/// Where the tag `s` starts with ends (its `>`), past quoted attribute values
/// (`<img alt="a>b">`); at the first `>` when a quote is never closed.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    s.find('>')
}

/// The text after the first closing tag `</name…>` in `s`.
fn after_closing_tag<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    let j = s.to_ascii_lowercase().find(&format!("</{name}"))?;
    let k = s[j..].find('>')?;
    Some(&s[j + k + 1..])
}

/// Drops CSS rules: `selector{prop:value;…}` and `@media (…){…}` (nested braces too).
fn drop_css_rules(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        let Some(len) = balanced_block(&rest[open..]) else {
            break;
        };
        let block = &rest[open..open + len];
        let before = &rest[..open];
        if !is_declaration_block(block) {
            out.push_str(&rest[..open + len]);
            rest = &rest[open + len..];
            continue;
        }
        // The selector: from an at-rule's `@`, else the run of text since the last space.
        let at_rule = before
            .match_indices('@')
            .map(|(at, _)| at)
            .rfind(|&at| before[..at].ends_with(char::is_whitespace) || at == 0);
        let start = at_rule
            .filter(|&at| !before[at..].contains(['{', '}']))
            .unwrap_or_else(|| before.rfind(char::is_whitespace).map_or(0, |w| w + 1));
        out.push_str(&before[..start]);
        out.push(' ');
        rest = &rest[open + len..];
    }
    out.push_str(rest);
    out
}

/// The length in bytes of the `{…}` block `s` starts with, when its braces balance.
fn balanced_block(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A block that holds a CSS declaration: `name:value` with a name of letters and dashes.
fn is_declaration_block(block: &str) -> bool {
    block
        .split(['{', '}', ';'])
        .filter_map(|d| d.split_once(':'))
        .any(|(name, value)| {
            let name = name.trim();
            !name.is_empty()
                && !value.trim().is_empty()
                && name.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        })
}

/// Named entities met in scraped headings; any other named one stays as written.
const NAMED: &[(&str, &str)] = &[
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("quot", "\""),
    ("apos", "'"),
    ("nbsp", "\u{a0}"),
    ("ndash", "–"),
    ("mdash", "—"),
    ("hellip", "…"),
    ("lsquo", "‘"),
    ("rsquo", "’"),
    ("ldquo", "“"),
    ("rdquo", "”"),
    ("laquo", "«"),
    ("raquo", "»"),
    ("copy", "©"),
    ("reg", "®"),
    ("trade", "™"),
    ("middot", "·"),
    ("bull", "•"),
    ("times", "×"),
    ("eacute", "é"),
    ("uuml", "ü"),
    ("ouml", "ö"),
    ("auml", "ä"),
    ("szlig", "ß"),
];

/// Decodes `&name;`, `&#123;` and `&#x1F;` once (so `&amp;lt;` gives the text `&lt;`).
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let decoded = tail
            .find(';')
            .filter(|&end| end > 0 && end <= 10)
            .and_then(|end| Some((entity(&tail[..end])?, end)));
        match decoded {
            Some((text, end)) => {
                out.push_str(&text);
                rest = &tail[end + 1..];
            }
            None => {
                out.push('&');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of one entity's name (`amp`, `#39`, `#x27`).
fn entity(name: &str) -> Option<String> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        // NUL and values that are no character read as the replacement character.
        let c = char::from_u32(code)
            .filter(|&c| c != '\0')
            .unwrap_or('\u{fffd}');
        return Some(c.to_string());
    }
    NAMED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::clean_heading;

    #[test]
    fn the_sandbox_stray_texts_are_dropped() {
        let stray = [
            "<span class=\"badge\">New</span>",
            ".css-1q2w3e{display:flex;color:#222}",
            "&nbsp;",
            "<!-- -->",
            "<b>",
            "</strong>",
            "@media (max-width:600px){.h2{font-size:18px}}",
            "<i class=\"icon-star\"></i>",
            "\u{200b}",
            "<a href=\"#toc\">#</a>",
        ];
        for s in stray {
            let before = clean_heading(&format!("{s}Best running shoes"));
            let after = clean_heading(&format!("Best running shoes {s}"));
            // A badge keeps its word: it is text on the page.
            let words = if s.contains("badge") { "New" } else { "" };
            if words.is_empty() {
                assert_eq!(before, "Best running shoes", "{s}");
                assert_eq!(after, "Best running shoes", "{s}");
            } else {
                assert_eq!(before, format!("{words} Best running shoes"), "{s}");
                assert_eq!(after, format!("Best running shoes {words}"), "{s}");
            }
        }
    }

    #[test]
    fn white_space_is_collapsed_and_trimmed() {
        assert_eq!(clean_heading("  Best\u{a0}shoes\u{a0}"), "Best shoes");
        assert_eq!(clean_heading("Best\n\t  shoes"), "Best shoes");
        assert_eq!(clean_heading("Best<br>shoes"), "Best shoes");
        assert_eq!(clean_heading("<b></b>&nbsp;<!-- x -->"), "");
    }

    #[test]
    fn entities_are_decoded_once() {
        assert_eq!(clean_heading("Tom &amp; Jerry"), "Tom & Jerry");
        assert_eq!(
            clean_heading("It&#39;s &#x2014; &quot;new&quot;"),
            "It's — \"new\""
        );
        assert_eq!(clean_heading("&lt;b&gt; is a tag"), "<b> is a tag");
        assert_eq!(clean_heading("&amp;lt;"), "&lt;");
        assert_eq!(clean_heading("&#0; &#xD800;"), "\u{fffd} \u{fffd}");
        // Not an entity: text.
        assert_eq!(
            clean_heading("R&D and Q&A; &unknown;"),
            "R&D and Q&A; &unknown;"
        );
    }

    #[test]
    fn text_that_only_looks_like_code_stays() {
        assert_eq!(clean_heading("a < b and c > d"), "a < b and c > d");
        assert_eq!(clean_heading("size {small} guide"), "size {small} guide");
        assert_eq!(
            clean_heading("Time: 10:30 {approx}"),
            "Time: 10:30 {approx}"
        );
        assert_eq!(clean_heading("3 < 5"), "3 < 5");
        assert_eq!(clean_heading("unclosed <b"), "unclosed <b");
    }

    #[test]
    fn style_and_script_elements_go_with_their_content() {
        assert_eq!(
            clean_heading("<style>.a{color:red}</style>Trail shoes<script>alert(1)</script>"),
            "Trail shoes"
        );
        assert_eq!(clean_heading("Shoes <STYLE>x</STYLE>"), "Shoes");
        assert_eq!(
            clean_heading("h2.title,.x{margin:0} Road shoes"),
            "Road shoes"
        );
        assert_eq!(clean_heading("Shoes <!-- open comment"), "Shoes");
        assert_eq!(clean_heading("<img alt=\"a>b\" src=x>Shoes"), "Shoes");
        assert_eq!(clean_heading("<b title='it\"s'>Shoes</b>"), "Shoes");
        assert_eq!(
            clean_heading("mail me@x.com .a{color:red}"),
            "mail me@x.com"
        );
        // A link with words keeps them; a permalink mark goes.
        assert_eq!(
            clean_heading("<a href=\"/x\">Trail</a> shoes <a>¶</a>"),
            "Trail shoes"
        );
    }

    #[test]
    fn attack_strings_lose_their_markup() {
        let cases = [
            ("<script>window.__xss=1</script>", ""),
            ("<img src=x onerror=\"window.__xss=1\">", ""),
            ("<svg onload=window.__xss=1>", ""),
            ("\"><script>window.__xss=1</script>", "\">"),
            ("<a href=\"javascript:window.__xss=1\">click</a>", "click"),
            ("<iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>", ""),
            ("</style><style>body{display:none}</style><b onmouseover=window.__xss=1>broken", "broken"),
            (
                "<div style=\"background:url(javascript:window.__xss=1)\">&lt;b&gt;entity&amp;</div",
                "<b>entity&</div",
            ),
        ];
        for (raw, clean) in cases {
            assert_eq!(clean_heading(raw), clean, "{raw}");
        }
    }
}
