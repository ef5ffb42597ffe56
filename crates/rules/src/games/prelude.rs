//! What every game module uses, imported at once (`use super::prelude::*`).

pub(crate) use super::{
    core::{HandScore, MatchCore},
    observe::Shown,
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

/// Writes `n` in decimal, without the formatting machinery (a hand's
/// summary line has a dozen numbers; this runs at every hand's end).
pub(crate) fn push_number(out: &mut impl std::fmt::Write, n: u8) {
    let (mut digits, mut len) = ([0u8; 3], 0);
    if n >= 100 {
        digits[len] = b'0' + n / 100;
        len += 1;
    }
    if n >= 10 {
        digits[len] = b'0' + n / 10 % 10;
        len += 1;
    }
    digits[len] = b'0' + n % 10;
    len += 1;
    // ASCII digits: always UTF-8.
    if let Ok(text) = std::str::from_utf8(&digits[..len]) {
        let _ = out.write_str(text);
    }
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
    fn numbers_are_written_as_format_writes_them() {
        let mut out = String::new();
        push_numbers(&mut out, [0, 7, 10, 13, 99, 100, 255]);
        assert_eq!(out, "0 7 10 13 99 100 255");
        let mut joined = String::new();
        write_joined(&mut joined, [0u8, 7, 10, 13, 99, 100, 255], " ");
        assert_eq!(out, joined);
    }
}
