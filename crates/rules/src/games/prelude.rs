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
    outcome::{MatchResult, ScoreOrder},
    seat::{Player, Seat, SeatSet},
    trick::{Trick, TrickRules, suit_id},
    variants::Variant,
    view::{Event, Phase, Source, TableCard, Trump},
};

/// Writes `items` into `out`, each after `sep` but the first: a hand's
/// summary line built in one string, without a `Vec<String>` and `join`
/// (this runs at every hand's end).
pub(crate) fn write_joined<T: std::fmt::Display>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    sep: &str,
) {
    use std::fmt::Write as _;
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        let _ = write!(out, "{item}");
    }
}
