//! What the protocol bounds: message sizes, names, and how much of any text a
//! bot supplied is ever echoed back (in a `Fault`, a log line, a replay log or
//! a `WatchTable` record). docs/protocol.md states the same numbers.

/// The largest message either side accepts, encoded: 64 KiB. A decision
/// request of the largest game is under 4 KiB and an answer a few bytes, so
/// this leaves room for every legal message and none for a flood. A bot
/// message above it ends the stream with `OUT_OF_RANGE` and counts as a
/// `MALFORMED` fault of the seat.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The most characters of a bot-supplied text (a malformed answer, a bot
/// name in Hello) echoed anywhere; longer texts are cut with
/// [`truncate`], which says how long the original was.
pub const ECHO_CHARS: usize = 80;

/// The longest bot, tournament or table name accepted.
pub const MAX_NAME_CHARS: usize = 64;

/// `text` if it has at most `max` characters, else its first `max`
/// characters followed by `…(N bytes)` naming the original length. Control
/// characters are shown as `?` so an echoed text cannot forge log lines.
pub fn truncate(text: &str, max: usize) -> String {
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).map(clean).collect();
    if chars.next().is_none() {
        head
    } else {
        format!("{head}…({} bytes)", text.len())
    }
}

/// [`truncate`] at [`ECHO_CHARS`]: how every bot-supplied text is echoed.
pub fn echo(text: &str) -> String {
    truncate(text, ECHO_CHARS)
}

/// Checks a name that becomes part of a file name, a table id, a CSV cell
/// or a log line: 1 to [`MAX_NAME_CHARS`] ASCII letters, digits, `-`, `_`
/// and `.`, not starting with `.` (so never `..` or a hidden file).
///
/// # Errors
/// A sentence saying what is wrong, for the caller to place (a key and a
/// line, a gRPC status).
pub fn check_name(name: &str) -> Result<(), String> {
    check_id("name", name, MAX_NAME_CHARS)
}

/// The longest table id an admin may give: a league's name (at most
/// [`MAX_NAME_CHARS`]) and its round and match numbers fit.
pub const MAX_TABLE_ID_CHARS: usize = 128;

/// Checks a table id given by an admin: as [`check_name`], at most
/// [`MAX_TABLE_ID_CHARS`] characters.
///
/// # Errors
/// A sentence saying what is wrong.
pub fn check_table_id(id: &str) -> Result<(), String> {
    check_id("table id", id, MAX_TABLE_ID_CHARS)
}

fn check_id(what: &str, name: &str, max: usize) -> Result<(), String> {
    if name.is_empty() {
        return Err(format!("a {what} must not be empty"));
    }
    if name.len() > max {
        return Err(format!(
            "a {what} has at most {max} characters, `{}` has {}",
            echo(name),
            name.chars().count()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
    {
        return Err(format!(
            "a {what} needs ASCII letters, digits, `-`, `_` or `.` only; `{}` has {c:?}",
            echo(name)
        ));
    }
    if name.starts_with('.') {
        return Err(format!(
            "a {what} must not start with `.`: `{}`",
            echo(name)
        ));
    }
    Ok(())
}

/// The first characters of a secret token, for logs: enough to tell tokens
/// apart, never enough to use one.
pub fn token_hint(token: &str) -> String {
    let head: String = token.chars().take(8).collect();
    if token.chars().count() > 8 {
        format!("{}…", truncate(&head, 8))
    } else {
        "…".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_and_say_their_length() {
        assert_eq!(truncate("bid 7D", 80), "bid 7D");
        let long = "x".repeat(3_000_000);
        let e = echo(&long);
        assert!(e.len() < 120, "{}", e.len());
        assert!(e.ends_with("…(3000000 bytes)"), "{e}");
        assert_eq!(truncate("a\nb\u{1b}[31m", 80), "a?b?[31m");
        // Multi-byte characters are never split.
        assert_eq!(truncate("ééé", 2), "éé…(6 bytes)");
    }

    #[test]
    fn names_that_could_escape_a_folder_or_a_cell_are_refused() {
        for good in ["alice", "heuristic-2", "bot_v1.3", "A"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "../../evil",
            "..",
            ".hidden",
            "a/b",
            "a\\b",
            "smith,j",
            "two words",
            "quote\"d",
            "new\nline",
            "naïve",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} accepted");
        }
        assert!(check_name(&"a".repeat(64)).is_ok());
        let e = check_name(&"a".repeat(65)).unwrap_err();
        assert!(e.contains("at most 64"), "{e}");
    }

    #[test]
    fn token_hints_never_hold_the_whole_token() {
        let t = "seat-0123456789abcdef0123456789abcdef";
        let h = token_hint(t);
        assert!(t.starts_with(h.trim_end_matches('…')));
        assert!(h.len() < 16);
        assert_eq!(token_hint("short"), "…");
    }
}
