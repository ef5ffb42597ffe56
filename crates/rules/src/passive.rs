//! The `passive` fallback: the most passive legal action, so that a faulting
//! seat harms nobody at its table (docs/rules/*.md, section "Fallback").
//!
//! Each action gets a key, lower being more passive; the fallback is the
//! legal action with the lowest key, the first in the game's legal order
//! among equal keys. The key reads the game's state only through
//! [`Game::passive_key`], so the choice is a pure function of the state and
//! the legal list: the same live, in a verification and in a replay.
//!
//! The default keys, by kind (a game overrides what its rules read
//! differently, as Yogi's bid cards and leader choice):
//! * `pass`, `no`, `vote no` before anything else; then `vote yes`,
//!   `declare`, `reveal`;
//! * the smallest number: `bid n` (a contract bid, Oneonta's positive bid),
//!   then `null r` with the smallest risk, `size h`, `count b`;
//! * numbered auction bids (`bid 7D`) from the lowest, by tricks then strain;
//! * the exchange that changes least the hand's value: `whole` (no
//!   difficulty bonus in any section, L3), then `half`, `without`, `against`;
//! * announcements, doubles, redoubles and Oneonta's doubled bids last;
//! * cards: the lowest card, the one least able to win a trick: a card that
//!   is no trump before a trump, then the lowest power under the hand's
//!   trick rules; a card given away before the auction (Israeli frisch) by
//!   its printed rank alone.

use crate::{
    action::{Action, Exchange},
    card::Card,
    game::Game,
    seat::Seat,
    trick::{TrickRules, suit_id},
};

/// Kinds never chosen while anything else is legal.
const LAST: u32 = 1 << 20;

/// A card's key under `rules`: trumps after every other card, then by power
/// (a suitless card, such as a joker at no trump in Illustrated, has power
/// 0 and never wins: it is the lowest).
pub fn card_key(rules: &TrickRules, card: Card) -> u32 {
    let suit = rules.suit_of(card);
    let trump = suit != suit_id::NONE && suit == rules.trump();
    u32::from(trump) * 256 + u32::from(rules.power_of(card))
}

/// A card's key by printed rank alone (aces high, jokers above the aces).
pub fn rank_key(card: Card) -> u32 {
    match card.rank() {
        Some(r) => r as u32,
        None if card == Card::LITTLE_JOKER => 13,
        None => 14,
    }
}

/// The default key of `action` (see the module documentation); `rules` are
/// the trick rules of the current hand.
pub fn default_key(rules: &TrickRules, action: Action) -> u32 {
    match action {
        Action::Pass | Action::No | Action::Vote(false) => 0,
        Action::Vote(true) => 1,
        Action::Declare => 2,
        Action::Reveal => 3,
        Action::Bid(n) => 100 + u32::from(n),
        Action::Null(r) => 200 + u32::from(r),
        Action::HandSize(h) => 300 + u32::from(h),
        Action::Count(b) => 300 + u32::from(b),
        Action::Leader(s) => 300 + s.index() as u32,
        Action::Exchange(e) => {
            400 + match e {
                Exchange::Whole => 0,
                Exchange::Half => 1,
                Exchange::Without => 2,
                Exchange::Against => 3,
            }
        }
        Action::Contract { tricks, strain } => {
            1000 + u32::from(tricks) * 8 + u32::from(strain.order())
        }
        Action::OpenNull => 2000,
        Action::Give(c) => 10_000 + rank_key(c),
        Action::Play(c) | Action::Discard(c) | Action::Place(c) => 10_000 + card_key(rules, c),
        Action::DoubleBid(_)
        | Action::DoubleNull(_)
        | Action::Announce(_)
        | Action::Double(_)
        | Action::Redouble(_) => LAST,
    }
}

/// The most passive of `legal` for `seat` in `game`: the lowest
/// [`Game::passive_key`], the first in the legal order among equals.
///
/// # Panics
/// If `legal` is empty (a seat asked to act always has a legal action).
pub fn passive_action<G: Game>(game: &G, seat: Seat, legal: &[Action]) -> Action {
    let mut best = legal[0];
    let mut best_key = game.passive_key(seat, best);
    for &a in &legal[1..] {
        let k = game.passive_key(seat, a);
        if k < best_key {
            best = a;
            best_key = k;
        }
    }
    best
}
