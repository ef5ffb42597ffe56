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
