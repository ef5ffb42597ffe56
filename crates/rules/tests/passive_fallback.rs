//! The `passive` fallback (the default) plays what each game's page says in
//! its "Fallback" section (docs/rules/*.md): pass (or `no`, `vote no`)
//! whenever it is legal, the lowest bid allowed, the lowest card that
//! follows (no trump while another card is legal, then the lowest power),
//! the first frisch or discard cards by rank, Yogi's lowest-valued bid card
//! (Y4) and the leader the rules name without a reveal (Y8). Checked at
//! every step of random matches of every game and option set, and on whole
//! matches played by fallbacks alone.

mod common;

use common::{Driver, Policy, Rng, cases};
use whistle_rules::{
    Action, ActionKind, Exchange, Fallback, Game, MatchDriver, Options, Seat, Suit, Variant,
    dealing::Seed, fallback_action, suit_id,
};

/// Whether `card` is in the trump suit of the game's current trick rules.
fn is_trump(game: &impl Game, card: whistle_rules::Card) -> bool {
    let rules = game.trick_rules();
    let s = rules.suit_of(card);
    s != suit_id::NONE && s == rules.trump()
}

/// Checks the passive choice `chosen` for `seat` among `legal` against the
/// pages' words; returns a description of the first disagreement.
fn check(game: &impl Game, seat: Seat, legal: &[Action], chosen: Action) -> Result<(), String> {
    let kinds = |k: ActionKind| legal.iter().copied().filter(move |a| a.kind() == k);
    for quiet in [Action::Pass, Action::No, Action::Vote(false)] {
        if legal.contains(&quiet) {
            return if chosen == quiet {
                Ok(())
            } else {
                Err(format!("{quiet} is legal"))
            };
        }
    }
    let min_num = |k: ActionKind| {
        kinds(k).min_by_key(|a| match a {
            Action::Bid(n) | Action::Null(n) | Action::HandSize(n) | Action::Count(n) => *n,
            _ => 0,
        })
    };
    // The lowest bid allowed: a positive bid first, a null only when no
    // positive bid is (Oneonta's cooperative total, O16).
    for k in [
        ActionKind::Bid,
        ActionKind::Null,
        ActionKind::HandSize,
        ActionKind::Count,
    ] {
        if let Some(a) = min_num(k) {
            return if chosen == a {
                Ok(())
            } else {
                Err(format!("the lowest {k:?} is {a}"))
            };
        }
    }
    if legal.contains(&Action::Exchange(Exchange::Whole)) {
        return if chosen == Action::Exchange(Exchange::Whole) {
            Ok(())
        } else {
            Err("`whole` is legal (L3: no bonus)".into())
        };
    }
    match chosen {
        Action::Play(c) | Action::Discard(c) => {
            let rules = game.trick_rules();
            for &a in legal {
                let Some(o) = a.card() else { continue };
                let key = |x| (is_trump(game, x), rules.power_of(x));
                if key(o) < key(c) {
                    return Err(format!("{a} is lower than {chosen}"));
                }
            }
            Ok(())
        }
        Action::Give(c) => {
            let rank = |x: whistle_rules::Card| x.rank().map_or(99, |r| r as u8);
            match legal
                .iter()
                .filter_map(|a| a.card())
                .find(|&o| rank(o) < rank(c))
            {
                Some(o) => Err(format!("give {o} is lower than {chosen}")),
                None => Ok(()),
            }
        }
        Action::Place(c) => {
            // Y4: a printed diamond bids 0 tricks, the lowest value; the
            // joker bids as the turn-up's printed suit.
            let turn_up = game
                .observe(seat)
                .table
                .iter()
                .find(|t| t.label == "turn-up")
                .map(|t| t.card)
                .expect("Y1: a turn-up");
            let diamond =
                |x: whistle_rules::Card| x.suit().or(turn_up.suit()) == Some(Suit::Diamonds);
            if !diamond(c) && legal.iter().filter_map(|a| a.card()).any(diamond) {
                Err(format!("{chosen} bids more than a diamond"))
            } else {
                Ok(())
            }
        }
        Action::Leader(s) => {
            let n = game.seats();
            let from_left = |x: Seat| (x.index() + n - (game.dealer().index() + 1) % n) % n;
            match legal
                .iter()
                .find(|a| matches!(a, Action::Leader(o) if from_left(*o) < from_left(s)))
            {
                Some(a) => Err(format!("{a} is nearer the dealer's left (Y8)")),
                None => Ok(()),
            }
        }
        other => {
            if legal.iter().any(|a| {
                !matches!(
                    a.kind(),
                    ActionKind::Announce
                        | ActionKind::Double
                        | ActionKind::Redouble
                        | ActionKind::DoubleBid
                        | ActionKind::DoubleNull
                )
            }) && matches!(
                other.kind(),
                ActionKind::Announce
                    | ActionKind::Double
                    | ActionKind::Redouble
                    | ActionKind::DoubleBid
                    | ActionKind::DoubleNull
            ) {
                Err("a call or a double while something quieter is legal".into())
            } else {
                Ok(())
            }
        }
    }
}

#[test]
fn the_passive_choice_is_what_each_page_says_at_every_step() {
    let mut checked = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for case in cases() {
        for seed in 0..3u64 {
            let mut rng = Rng::new(seed);
            let mut d = Driver::new(&case, seed);
            let mut steps = 0;
            while !d.game.is_over() && steps < 2_000 {
                steps += 1;
                if d.deal_if_needed() {
                    continue;
                }
                for seat in d.game.to_act().iter() {
                    let legal = d.game.legal_actions(seat);
                    let chosen = fallback_action(
                        &d.game,
                        seat,
                        &legal,
                        Fallback::Passive,
                        Seed::from_u64(seed),
                        0,
                    );
                    assert!(legal.contains(&chosen), "{}: not legal", case.label);
                    if let Err(e) = check(&d.game, seat, &legal, chosen) {
                        panic!(
                            "{} seed {seed}: seat {seat} chose {chosen} among {legal:?}: {e}",
                            case.label
                        );
                    }
                    kinds.insert(chosen.kind());
                    checked += 1;
                }
                d.step(&mut rng, Policy::nth(seed));
            }
        }
    }
    assert!(checked > 10_000, "{checked} choices checked");
    // Every kind a fallback can be is met.
    for k in [
        ActionKind::Play,
        ActionKind::Pass,
        ActionKind::Bid,
        ActionKind::Give,
        ActionKind::Place,
        ActionKind::Discard,
        ActionKind::No,
        ActionKind::Vote,
        ActionKind::Exchange,
        ActionKind::HandSize,
        ActionKind::Count,
    ] {
        assert!(kinds.contains(&k), "no passive {k:?} was checked");
    }
}

/// A match where every seat faults at every decision: no auction is ever
/// won by a fallback (Israeli: every auction passes, I3's frisches follow
/// and the fourth all-pass is a misdeal; Illustrated: four passes, L2).
#[test]
fn a_table_of_fallbacks_never_bids() {
    for (variant, opts) in [
        (Variant::Israeli, vec!["hands=3"]),
        (Variant::Illustrated, vec!["hands=2"]),
    ] {
        let game = variant.new_game(&Options::parse(&opts).unwrap()).unwrap();
        let mut d = MatchDriver::new(game, Seed::from_u64(9), Fallback::default());
        let mut played = Vec::new();
        while let Some(seat) = d.to_ask().unwrap().first() {
            played.push(d.play_fallback(seat));
        }
        assert!(
            played
                .iter()
                .all(|a| *a == Action::Pass || a.kind() == ActionKind::Give)
        );
        assert!(d.game().hand_results().iter().all(|r| r.misdeal));
        if variant == Variant::Israeli {
            // I3: three frisches of 3 cards by 4 seats per hand.
            let gives = played
                .iter()
                .filter(|a| a.kind() == ActionKind::Give)
                .count();
            assert_eq!(gives, 3 * 3 * 4 * 3, "{variant}");
        }
    }
}

/// The random rule's draws from seed 9 in the first Israeli auction bid up
/// to 12NT; the passive rule passes there.
#[test]
fn the_passive_rule_passes_where_random_bid_high() {
    let game = || {
        Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap()
    };
    let mut random = MatchDriver::new(game(), Seed::from_u64(9), Fallback::Random);
    let mut passive = MatchDriver::new(game(), Seed::from_u64(9), Fallback::Passive);
    let mut high = false;
    for k in 0..6 {
        let s = random.to_ask().unwrap().first().unwrap();
        high |= matches!(random.play_fallback(s), Action::Contract { tricks, .. } if tricks >= 12);
        // Four passes, then the frisch (I3) gives the lowest cards.
        let s = passive.to_ask().unwrap().first().unwrap();
        let a = passive.play_fallback(s);
        if k < 4 {
            assert_eq!(a, Action::Pass);
        } else {
            assert_eq!(a.kind(), ActionKind::Give);
        }
    }
    assert!(high);
}
