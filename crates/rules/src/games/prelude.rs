//! What every game module uses, imported at once (`use super::prelude::*`).

pub(crate) use super::{
    core::{HandScore, MatchCore},
    observe::{Notes, Piles, Shown},
};
#[cfg(test)]
pub(crate) use crate::game::Status;
pub(crate) use crate::{
    action::{Action, ActionKind, ActionList},
    card::{Card, Rank, Suit},
    card_set::{CardSet, decks},
    context::{ContextError, HandContext},
    error::{IllegalReason, OptionError},
    game::Game,
    options::{OptionReader, OptionSpec, Options},
    outcome::{MatchResult, PerSeat, ScoreOrder, Summary},
    seat::{Player, Seat, SeatSet},
    trick::{Trick, TrickRules, suit_id},
    variants::Variant,
    view::{Event, Phase, Source, TableCard, Trump},
};

/// A short line written byte by byte on the stack (a hand's summary, up to
/// 96 bytes), then made a [`Summary`] at once: cheaper than growing the
/// summary a digit at a time. A write that would not fit fails and writes
/// nothing.
pub(crate) struct Line {
    buf: [u8; 96],
    len: usize,
}

impl Line {
    /// An empty line.
    pub(crate) fn new() -> Line {
        Line {
            buf: [0; 96],
            len: 0,
        }
    }

    /// Appends `s` if it fits.
    pub(crate) fn push_str(&mut self, s: &str) {
        let _ = std::fmt::Write::write_str(self, s);
    }

    /// The line as a summary.
    pub(crate) fn summary(&self) -> Summary {
        // Whole `str`s only were written: always UTF-8.
        Summary::from(std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default())
    }
}

impl std::fmt::Write for Line {
    #[inline]
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let Some(to) = self.buf.get_mut(self.len..end) else {
            return Err(std::fmt::Error);
        };
        for (t, &b) in to.iter_mut().zip(s.as_bytes()) {
            *t = b;
        }
        self.len = end;
        Ok(())
    }
}

/// Writes `n` in decimal, without the formatting machinery (a hand's
/// summary line has a dozen numbers; this runs at every hand's end).
pub(crate) fn push_number(out: &mut impl std::fmt::Write, n: u8) {
    // Each digit as a one-byte slice of the ten (no UTF-8 check to make).
    const DIGITS: &str = "0123456789";
    let mut digit = |d: u8| {
        let d = usize::from(d);
        let _ = out.write_str(DIGITS.get(d..d + 1).unwrap_or_default());
    };
    if n >= 100 {
        digit(n / 100);
    }
    if n >= 10 {
        digit(n / 10 % 10);
    }
    digit(n % 10);
}

/// Writes `items` with [`push_number`], separated by single spaces.
pub(crate) fn push_numbers(out: &mut impl std::fmt::Write, items: impl IntoIterator<Item = u8>) {
    for (i, n) in items.into_iter().enumerate() {
        if i > 0 {
            let _ = out.write_char(' ');
        }
        push_number(out, n);
    }
}

/// Writes `items` into `out`, each after `sep` but the first: a hand's
/// summary line built in one string, without a `Vec<String>` and `join`
/// (this runs at every hand's end).
pub(crate) fn write_joined<T: std::fmt::Display>(
    out: &mut impl std::fmt::Write,
    items: impl IntoIterator<Item = T>,
    sep: &str,
) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            let _ = out.write_str(sep);
        }
        let _ = write!(out, "{item}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_what_was_written_and_refuses_what_does_not_fit() {
        use std::fmt::Write as _;
        let mut line = Line::new();
        push_numbers(&mut line, [7, 13]);
        let strain = "NT";
        let _ = write!(line, "{strain} by ");
        assert_eq!(line.summary(), "7 13NT by ");
        assert!(line.write_str(&"x".repeat(90)).is_err());
        assert_eq!(line.summary(), "7 13NT by ");
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        let mut out = String::new();
        push_numbers(&mut out, [0, 7, 10, 13, 99, 100, 255]);
        assert_eq!(out, "0 7 10 13 99 100 255");
        let mut joined = String::new();
        write_joined(&mut joined, [0u8, 7, 10, 13, 99, 100, 255], " ");
        assert_eq!(out, joined);
    }
}
