//! Binary requests (`Hello.binary`): cards and actions as small integers.
//!
//! The encoding is the wire's, fixed for `whistle.v1` and documented in
//! docs/protocol.md ("Binary requests"); 0 always means none.
//!
//! - a card is its index + 1: `2C` = 1 … `AC` = 13, `2D` = 14 … `AS` = 52,
//!   `LJ` = 53, `BJ` = 54 (suit × 13 + rank + 1, suits `C D H S`, ranks
//!   `2` … `A`);
//! - an action is `1 + 4096 × kind + argument`, where `kind` is the
//!   action's position in the list of kinds (`play` 0, `pass` 1, `contract`
//!   2, ...: [`whistle_rules::ActionKind::ALL`]) and the argument is the card
//!   index for `play`, `give`, `place` and `discard` (so a card play's id is
//!   its card's id), `tricks × 5 + strain` (`C D H S NT` = 0..4) for a
//!   `contract` bid, the number for `bid`, `null`, `double-bid`,
//!   `double-null`, `hand-size` and `count`, the seat for `leader`, 1 for
//!   `vote yes`, the position in `whole half without against` for
//!   `exchange`, the feat's position in `four-kings four-aces dix-last
//!   all-three joker-catch slam` for `announce`, 0 for `game` or 1 + the
//!   feat's position for `double` and `redouble`, and 0 otherwise.

use whistle_rules::{Action, ActionKind, Card, CardSet, Exchange, Feat, Seat, Strain, Target};

/// How many ids one action kind spans.
const KIND_SPAN: u32 = 4096;

/// A card's wire id (1..=54).
pub fn card_id(c: Card) -> u32 {
    c.index() as u32 + 1
}

/// The card of a wire id, if it names one.
pub fn card_from_id(id: u32) -> Option<Card> {
    (id as usize).checked_sub(1).and_then(Card::from_index)
}

/// The ids of a set of cards, ascending.
pub fn card_ids(set: CardSet) -> Vec<u32> {
    set.iter().map(card_id).collect()
}

fn target_arg(t: Target) -> u32 {
    match t {
        Target::Game => 0,
        Target::Feat(f) => 1 + f as u32,
    }
}

/// An action's wire id.
pub fn action_id(a: Action) -> u32 {
    let arg = match a {
        Action::Play(c) | Action::Give(c) | Action::Place(c) | Action::Discard(c) => {
            c.index() as u32
        }
        Action::Pass | Action::OpenNull | Action::Declare | Action::Reveal | Action::No => 0,
        Action::Contract { tricks, strain } => u32::from(tricks) * 5 + u32::from(strain.order()),
        Action::Bid(n)
        | Action::Null(n)
        | Action::DoubleBid(n)
        | Action::DoubleNull(n)
        | Action::HandSize(n)
        | Action::Count(n) => u32::from(n),
        Action::Leader(s) => s.index() as u32,
        Action::Vote(yes) => u32::from(yes),
        Action::Exchange(e) => e as u32,
        Action::Announce(f) => f as u32,
        Action::Double(t) | Action::Redouble(t) => target_arg(t),
    };
    1 + KIND_SPAN * a.kind() as u32 + arg
}

/// The action of a wire id, if it names one.
pub fn action_from_id(id: u32) -> Option<Action> {
    let id = id.checked_sub(1)?;
    let kind = *ActionKind::ALL.get((id / KIND_SPAN) as usize)?;
    let arg = id % KIND_SPAN;
    let small = || u8::try_from(arg).ok();
    let card = || Card::from_index(arg as usize);
    let none = |a: Action| (arg == 0).then_some(a);
    let target = || match arg {
        0 => Some(Target::Game),
        n => Feat::ALL.get(n as usize - 1).map(|&f| Target::Feat(f)),
    };
    Some(match kind {
        ActionKind::Play => Action::Play(card()?),
        ActionKind::Give => Action::Give(card()?),
        ActionKind::Place => Action::Place(card()?),
        ActionKind::Discard => Action::Discard(card()?),
        ActionKind::Pass => return none(Action::Pass),
        ActionKind::OpenNull => return none(Action::OpenNull),
        ActionKind::Declare => return none(Action::Declare),
        ActionKind::Reveal => return none(Action::Reveal),
        ActionKind::No => return none(Action::No),
        ActionKind::Contract => Action::Contract {
            tricks: u8::try_from(arg / 5).ok()?,
            strain: Strain::ALL[(arg % 5) as usize],
        },
        ActionKind::Bid => Action::Bid(small()?),
        ActionKind::Null => Action::Null(small()?),
        ActionKind::DoubleBid => Action::DoubleBid(small()?),
        ActionKind::DoubleNull => Action::DoubleNull(small()?),
        ActionKind::HandSize => Action::HandSize(small()?),
        ActionKind::Count => Action::Count(small()?),
        ActionKind::Leader => {
            let s = arg as usize;
            if s >= whistle_rules::MAX_SEATS {
                return None;
            }
            Action::Leader(Seat::new(s))
        }
        ActionKind::Vote => match arg {
            0 => Action::Vote(false),
            1 => Action::Vote(true),
            _ => return None,
        },
        ActionKind::Exchange => Action::Exchange(*Exchange::ALL.get(arg as usize)?),
        ActionKind::Announce => Action::Announce(*Feat::ALL.get(arg as usize)?),
        ActionKind::Double => Action::Double(target()?),
        ActionKind::Redouble => Action::Redouble(target()?),
    })
}

/// The ids of a list of actions, in order.
pub fn action_ids(actions: &[Action]) -> Vec<u32> {
    actions.iter().map(|&a| action_id(a)).collect()
}

#[cfg(test)]
mod tests {
    use whistle_rules::{Game, Options, Variant, dealing};

    use super::*;

    #[test]
    fn card_ids_are_the_index_plus_one() {
        assert_eq!(card_id("2C".parse().unwrap()), 1);
        assert_eq!(card_id("AC".parse().unwrap()), 13);
        assert_eq!(card_id("2D".parse().unwrap()), 14);
        assert_eq!(card_id("AS".parse().unwrap()), 52);
        assert_eq!(card_id(Card::LITTLE_JOKER), 53);
        assert_eq!(card_id(Card::BIG_JOKER), 54);
        for id in 1..=54 {
            assert_eq!(card_id(card_from_id(id).unwrap()), id);
        }
        assert_eq!(card_from_id(0), None);
        assert_eq!(card_from_id(55), None);
    }

    #[test]
    fn the_documented_action_ids() {
        let id = |t: &str| action_id(t.parse().unwrap());
        assert_eq!(id("AS"), 52);
        assert_eq!(id("pass"), 4097);
        assert_eq!(id("bid 7D"), 1 + 2 * 4096 + 7 * 5 + 1);
        assert_eq!(id("bid 5"), 1 + 3 * 4096 + 5);
        assert_eq!(id("give 3C"), 1 + 8 * 4096 + 1);
        assert_eq!(id("vote yes"), 1 + 17 * 4096 + 1);
        assert_eq!(id("double slam"), 1 + 20 * 4096 + 6);
        // The table the Python kit's test pins too (bots/python/tests/test_helpers.py).
        let span = 4096;
        for (want, text) in [
            (1 + 2 * span + 13 * 5 + 4, "bid 13NT"),
            (1 + 4 * span, "null"),
            (1 + 4 * span + 3, "null 3"),
            (1 + 5 * span, "open-null"),
            (1 + 6 * span + 9, "bid 9 double"),
            (1 + 7 * span + 9, "null 9 double"),
            (1 + 9 * span + 51, "place AS"),
            (1 + 10 * span, "discard 2C"),
            (1 + 11 * span, "declare"),
            (1 + 12 * span, "reveal"),
            (1 + 13 * span, "no"),
            (1 + 14 * span + 2, "lead 2"),
            (1 + 15 * span + 4, "size 4"),
            (1 + 16 * span + 2, "count 2"),
            (1 + 17 * span, "vote no"),
            (1 + 18 * span + 3, "against"),
            (1 + 19 * span + 5, "announce slam"),
            (1 + 20 * span, "double game"),
            (1 + 21 * span + 1, "redouble four-kings"),
        ] {
            assert_eq!(id(text), want, "{text}");
        }
    }

    #[test]
    fn every_legal_action_of_every_game_round_trips() {
        let mut seen = 0;
        for variant in Variant::ALL {
            let mut g = variant
                .new_game(&Options::parse(&["hands=3"]).unwrap())
                .unwrap();
            let seed = dealing::Seed::from_u64(5);
            let mut step = 0usize;
            while !g.is_over() {
                if dealing::deal_if_needed(&mut g, seed).unwrap() {
                    continue;
                }
                let seat = g.to_act().first().unwrap();
                let actions = g.legal_actions(seat);
                for &a in &actions {
                    assert_eq!(action_from_id(action_id(a)), Some(a), "{variant} {a}");
                    seen += 1;
                }
                g.apply(seat, actions[(step * 7) % actions.len()]).unwrap();
                step += 1;
            }
        }
        assert!(seen > 1000);
        // Every kind, including those random play rarely reaches.
        for text in [
            "open-null",
            "null",
            "null 3",
            "bid 9 double",
            "null 9 double",
            "place 4S",
            "discard 3C",
            "declare",
            "reveal",
            "no",
            "lead 2",
            "size 4",
            "count 2",
            "vote no",
            "whole",
            "against",
            "announce slam",
            "double game",
            "redouble four-kings",
            "BJ",
            "bid 13NT",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(action_from_id(action_id(a)), Some(a), "{text}");
        }
        for bad in [0, 4098, 1 + 22 * 4096, 1 + 17 * 4096 + 2, 55] {
            assert_eq!(action_from_id(bad), None, "{bad}");
        }
    }
}
