//! What every game module uses, imported at once (`use super::prelude::*`).

pub(crate) use super::core::{MatchCore, trick_view};
pub(crate) use crate::{
    action::{Action, ActionKind, ActionList},
    card::{Card, Rank, Suit},
    card_set::{CardSet, decks},
    context::{ContextError, HandContext},
    error::{IllegalReason, OptionError},
    game::{Game, Status},
    options::{OptionReader, OptionSpec, Options},
    outcome::{HandResult, MatchResult, ScoreOrder},
    seat::{Player, Seat, SeatSet},
    trick::{Trick, TrickRules, suit_id},
    variants::Variant,
    view::{
        Event, LogEntry, Observation, Phase, SeatView, Source, TableCard, TrickView, Trump,
        visible_events,
    },
};
