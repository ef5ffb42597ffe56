//! Judging a seat's answer: the one place that decides whether an answer is
//! malformed, illegal, or a legal action. The referee judges live answers
//! with it and the replay verifier re-judges logged ones, so both always
//! agree.

use std::fmt;

use crate::{action::Action, game::Game, seat::Seat};

/// An answer as a seat gave it: an index into its legal actions, or text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Answer {
    /// An index into the legal actions (0-based).
    Index(u32),
    /// Canonical action text.
    Text(String),
    /// A text longer than any action's ([`MAX_ANSWER_TEXT`]), kept only as
    /// its length and its first characters: refused as malformed.
    TooLong {
        /// The text's whole length in bytes.
        bytes: usize,
        /// Its first characters, for logs.
        head: String,
    },
}

impl Answer {
    /// The answer as a log keeps it: a [`Answer::TooLong`] becomes the text
    /// of its first characters and its length (`…(60000 bytes)`), still too
    /// long to be an action, so it is judged the same when read again.
    pub fn for_log(self) -> Answer {
        match self {
            Answer::TooLong { bytes, head } => Answer::Text(format!("{head}…({bytes} bytes)")),
            other => other,
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Index(i) => write!(f, "index {i}"),
            Answer::Text(t) => write!(f, "text {t:?}"),
            Answer::TooLong { bytes, head } => write!(f, "text {head:?}… ({bytes} bytes)"),
        }
    }
}

/// Why an answer is not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// Not an action of the game at all: unparsable text or an index out of range.
    Malformed(String),
    /// A well-formed action that is not legal now.
    Illegal(String),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Malformed(s) | Rejection::Illegal(s) => f.write_str(s),
        }
    }
}

/// The longest answer text judged by parsing. Every action's canonical text
/// is far shorter (`bid 10NT`, `give 3C`); a longer text is malformed
/// without being parsed, and its message never quotes it, so a huge answer
/// is never echoed.
pub const MAX_ANSWER_TEXT: usize = 32;

/// Judges `answer` from `seat` against `game` now.
///
/// # Errors
/// [`Rejection::Malformed`] for text longer than [`MAX_ANSWER_TEXT`] bytes,
/// text that does not parse in this game or an
/// index outside the legal list; [`Rejection::Illegal`] for a parsed action
/// that is not legal now (with the engine's reason).
pub fn judge<G: Game>(game: &G, seat: Seat, answer: &Answer) -> Result<Action, Rejection> {
    let legal = game.legal_actions(seat);
    match answer {
        Answer::Index(i) => legal.get(*i as usize).copied().ok_or_else(|| {
            Rejection::Malformed(format!(
                "index {i} is out of range ({} legal actions)",
                legal.len()
            ))
        }),
        Answer::Text(t) if t.len() > MAX_ANSWER_TEXT => Err(too_long(t.len())),
        Answer::TooLong { bytes, .. } => Err(too_long(*bytes)),
        Answer::Text(t) => match game.parse_action(t) {
            Err(e) => Err(Rejection::Malformed(e.to_string())),
            Ok(a) if legal.contains(&a) => Ok(a),
            Ok(a) => Err(Rejection::Illegal(match game.validate(seat, a) {
                Err(reason) => format!("`{a}`: {reason}"),
                Ok(()) => format!("`{a}` is not legal now"),
            })),
        },
    }
}

fn too_long(bytes: usize) -> Rejection {
    Rejection::Malformed(format!(
        "the answer text is {bytes} bytes long; an action's text has at most {MAX_ANSWER_TEXT}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, Variant, dealing};

    #[test]
    fn answers_are_judged_by_kind() {
        let mut g = Variant::Israeli.new_game(&Options::new()).unwrap();
        dealing::deal_if_needed(&mut g, dealing::Seed::from_u64(1)).unwrap();
        let s = Seat::new(1);
        assert_eq!(judge(&g, s, &Answer::Index(0)), Ok(Action::Pass));
        assert_eq!(judge(&g, s, &Answer::Text("PASS".into())), Ok(Action::Pass));
        assert!(matches!(
            judge(&g, s, &Answer::Index(99)),
            Err(Rejection::Malformed(_))
        ));
        assert!(matches!(
            judge(&g, s, &Answer::Text("xyzzy".into())),
            Err(Rejection::Malformed(_))
        ));
        assert!(matches!(
            judge(&g, s, &Answer::Text("declare".into())),
            Err(Rejection::Malformed(_))
        ));
        let illegal = judge(&g, s, &Answer::Text("bid 4S".into()));
        assert!(
            matches!(illegal, Err(Rejection::Illegal(ref m)) if m.contains("out of range")),
            "{illegal:?}"
        );
        let huge = judge(&g, s, &Answer::Text("pass".repeat(1_000_000)));
        assert!(
            matches!(huge, Err(Rejection::Malformed(ref m)) if m.len() < 100 && m.contains("4000000 bytes")),
            "{huge:?}"
        );
        assert!(matches!(
            judge(&g, Seat::new(2), &Answer::Index(0)),
            Err(Rejection::Malformed(_))
        ));
    }
}
