//! Scenario tests of yogi, named by RULES.md decision ids.

use super::*;
use crate::dealing::{Seed, Shuffler, deal_if_needed, deck_order};
use crate::games::testing::{act, card, cards, seat};

fn game(options: &[&str]) -> Yogi {
    Yogi::new(&Options::parse(options).unwrap()).unwrap()
}

/// A deck order that deals `hands[s]` to seat `s` (one at a time from the
/// dealer's left) when `dealer` deals, then turns up `turn_up`; the rest
/// of the deck follows in ascending order.
fn order_for(dealer: usize, hands: &[&str], turn_up: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h).to_vec()).collect();
    let size = hands[0].len();
    assert!(hands.iter().all(|h| h.len() == size));
    let mut order: Vec<Card> = (0..n * size)
        .map(|i| hands[(dealer + 1 + i) % n][i / n])
        .collect();
    order.push(card(turn_up));
    let used: CardSet = order.iter().copied().collect();
    assert_eq!(used.len(), order.len(), "a card twice");
    order.extend(decks::WITH_ONE_JOKER.minus(used));
    order
}

fn legal(g: &Yogi, s: usize) -> Vec<String> {
    g.legal_actions(seat(s))
        .iter()
        .map(Action::to_string)
        .collect()
}

fn playable(g: &Yogi, s: usize) -> CardSet {
    g.legal_actions(seat(s))
        .iter()
        .filter_map(|a| a.card())
        .collect()
}

fn table(o: &Observation) -> Vec<(String, Option<usize>, String)> {
    o.table
        .iter()
        .map(|t| {
            (
                t.label.clone(),
                t.owner.map(Seat::index),
                t.card.to_string(),
            )
        })
        .collect()
}

fn bid_cards_seen(o: &Observation) -> Vec<(usize, String)> {
    o.table
        .iter()
        .filter(|t| t.label == "bid-card")
        .map(|t| (t.owner.unwrap().index(), t.card.to_string()))
        .collect()
}

fn bids_seen(o: &Observation) -> Vec<Option<u8>> {
    o.players
        .iter()
        .map(|p| match p.bid {
            Some(Action::Bid(n)) => Some(n),
            None => None,
            Some(other) => panic!("unexpected bid {other}"),
        })
        .collect()
}

/// The source's example, dealt by seat 0 with 2C turned up (clubs trump).
/// Seat 1 holds the three top spades and bids 4C (3 tricks); seat 2 holds
/// diamonds and bids 5D (0); seats 3, 4 and 0 hold hearts and diamonds and
/// bid hearts (2). Nobody else holds a spade or a club, so seat 1 wins
/// every trick it leads with a spade.
const EXAMPLE: [&str; 5] = [
    "6D 7D 8D TH",
    "AS KS QS 4C",
    "2D 3D 4D 5D",
    "2H 3H 4H 5H",
    "6H 7H 8H 9H",
];
const EXAMPLE_BIDS: [&str; 5] = ["TH", "4C", "5D", "5H", "9H"];

/// The example dealt, and every bid card placed (seat order 4, 2, 0, 3, 1:
/// the order of a simultaneous step does not matter).
fn example_bid() -> Yogi {
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    for s in [4, 2, 0, 3, 1] {
        act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
    }
    assert_eq!(g.stage, Stage::Declare);
    g
}

/// Seat 1 leads its three spades; every other seat throws its lowest card.
fn seat_1_takes_three_spade_tricks(g: &mut Yogi) {
    for lead in ["AS", "KS", "QS"] {
        act(g, 1, lead);
        for s in [2, 3, 4, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
        assert_eq!(g.tricks.last().unwrap().1, seat(1));
    }
}

#[test]
fn y1_four_cards_each_from_the_dealers_left_and_the_next_turned_up() {
    let mut g = game(&[]);
    assert_eq!(g.seats(), 5);
    assert_eq!(g.deck(), decks::WITH_ONE_JOKER);
    let order = decks::WITH_ONE_JOKER.to_vec();
    g.deal(&order).unwrap();
    // Seat 1 gets the 1st, 6th, 11th and 16th cards; the 21st is turned up.
    assert_eq!(g.hands[1], cards("2C 7C QC 4D"));
    assert_eq!(g.hands[0], cards("6C JC 3D 8D"));
    assert_eq!(g.turn_up, Some(card("9D")));
    assert_eq!(g.to_act(), SeatSet::all(5));
    assert!(g.simultaneous());
    let o = g.observe(seat(3));
    assert_eq!(o.phase, Phase::Bid);
    assert_eq!(table(&o), [("turn-up".to_string(), None, "9D".to_string())]);
    assert_eq!(o.note("turn-up"), Some("9D"));
    assert_eq!(
        o.piles,
        [("undealt".to_string(), 32), ("bid-cards".to_string(), 0)]
    );
    assert_eq!(
        g.seen_by(seat(3)),
        g.hands[3].or(CardSet::single(card("9D")))
    );
    // Y1: 2 to 13 players; 13 × 4 + 1 = 53 cards.
    for bad in ["players=1", "players=14", "players=x", "players=unset"] {
        assert!(
            Yogi::new(&Options::parse(&[bad]).unwrap()).is_err(),
            "{bad}"
        );
    }
    let mut g = game(&["players=13"]);
    g.deal(&order).unwrap();
    assert!(g.hands[..13].iter().all(|h| h.len() == 4));
    assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
    let o = g.observe(seat(0));
    assert_eq!(o.piles[0], ("undealt".to_string(), 0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("joker"), Some("none"));
}

#[test]
fn y2_a_nine_turned_up_makes_the_nines_a_suit_and_trump() {
    // Dealer 0, three seats, 9D turned up: the nines are trump.
    let hands = ["9H 3S 4S 5S", "2H 9C JD QD", "AH KH 2S 9S"];
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "9D")).unwrap();
    let o = g.observe(seat(0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("trump"), Some("nines"));
    assert_eq!(o.note("joker"), Some("9D"));
    act(&mut g, 0, "place 5S");
    act(&mut g, 1, "place JD");
    act(&mut g, 2, "place 2S");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    // Seat 1 leads 2H. Seat 2 must follow with a heart. Seat 0 holds 9H,
    // which is no heart while the nines are a suit: it may play anything.
    act(&mut g, 1, "2H");
    assert_eq!(playable(&g, 2), cards("AH KH"));
    act(&mut g, 2, "KH");
    assert_eq!(playable(&g, 0), cards("9H 3S 4S"));
    act(&mut g, 0, "9H");
    assert_eq!(g.tricks[0].1, seat(0), "the nine trumps the hearts");
    // Seat 0 leads a spade: seat 2's 9S does not follow spades, AH may go.
    act(&mut g, 0, "3S");
    assert_eq!(playable(&g, 1), cards("9C QD"));
    act(&mut g, 1, "QD");
    assert_eq!(playable(&g, 2), cards("AH 9S"), "9S is not a spade");
    act(&mut g, 2, "AH");
    assert_eq!(g.tricks[1].1, seat(0));
    // A nine led must be followed by a nine when held.
    act(&mut g, 0, "4S");
    act(&mut g, 1, "9C");
    act(&mut g, 2, "9S");
    assert_eq!(g.tricks[2].1, seat(1), "9C beats 9S");
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "9D")).unwrap();
    act(&mut g, 0, "place 3S");
    act(&mut g, 1, "place 2H");
    act(&mut g, 2, "place 2S");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    act(&mut g, 1, "9C");
    assert_eq!(playable(&g, 2), cards("9S"));
    assert_eq!(
        g.check(seat(2), Action::Play(card("AH"))),
        Err(IllegalReason::MustFollowSpecial("nines"))
    );
    act(&mut g, 2, "9S");
    assert_eq!(playable(&g, 0), cards("9H"), "9H must follow the nines");
    assert_eq!(
        g.check(seat(0), Action::Play(card("4S"))),
        Err(IllegalReason::MustFollowSpecial("nines"))
    );
}

#[test]
fn y2_yogis_order_of_the_nines() {
    let winner = |rules: &TrickRules, text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    for turn_up in ["9D", "9S", "9H", "9C", "BJ"] {
        let rules = trick_rules(card(turn_up));
        assert_eq!(rules.trump(), suit_id::NINES, "{turn_up}");
        // 9D < 9S < 9H < 9C.
        assert_eq!(winner(&rules, "9D 9S"), 1);
        assert_eq!(winner(&rules, "9S 9H"), 1);
        assert_eq!(winner(&rules, "9H 9C"), 1);
        assert_eq!(winner(&rules, "9C 9D 9S 9H"), 0);
        assert_eq!(winner(&rules, "9S 9C 9D 9H"), 1);
        // The lowest nine trumps an ace; a plain nine is no card of its suit.
        assert_eq!(winner(&rules, "AS 9D"), 1);
        assert_eq!(winner(&rules, "8H 9H"), 1);
        assert_eq!(rules.suit_of(card("9H")), suit_id::NINES);
    }
    // Otherwise a nine is a card of its suit, between the eight and the ten.
    let rules = trick_rules(card("2C"));
    assert_eq!(winner(&rules, "8H 9H TH"), 2);
    assert_eq!(winner(&rules, "9H 8H"), 0);
    assert_eq!(winner(&rules, "9H 9C"), 1, "a club trumps");
    assert_eq!(winner(&rules, "9H 9S"), 0, "a spade does not follow");
}

#[test]
fn y2_y3_a_joker_turned_up_makes_nines_trump_and_no_joker_in_play() {
    let hands = ["9H AS", "2S 3S"];
    let mut g = game(&["players=2", "dealer-chooses=true"]);
    g.deal(&order_for(0, &hands, "BJ")).unwrap();
    act(&mut g, 0, "size 2");
    assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
    let o = g.observe(seat(0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("joker"), Some("none"));
    assert_eq!(g.rules.suit_of(Card::BIG_JOKER), suit_id::NONE);
    assert_eq!(g.rules.suit_of(card("9H")), suit_id::NINES);
}

#[test]
fn y3_the_joker_is_a_second_copy_of_the_turn_up() {
    // 7H turned up: hearts are trump and BJ is a heart between 6H and 8H.
    let rules = trick_rules(card("7H"));
    assert_eq!(rules.suit_of(Card::BIG_JOKER), Suit::Hearts as u8);
    assert_eq!(rules.power_of(Card::BIG_JOKER), rules.power_of(card("7H")));
    let winner = |text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    assert_eq!(winner("6H BJ"), 1);
    assert_eq!(winner("BJ 8H"), 1);
    assert_eq!(winner("AS BJ"), 1, "the joker trumps");
    // In play: a heart led, the holder of BJ must follow with it.
    let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D", "AD KD QD JD"];
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "7H")).unwrap();
    act(&mut g, 0, "place 4S");
    act(&mut g, 1, "place 7D");
    act(&mut g, 2, "place JD");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    act(&mut g, 1, "2H");
    assert_eq!(playable(&g, 2), cards("AD KD QD"));
    act(&mut g, 2, "AD");
    assert_eq!(playable(&g, 0), cards("BJ"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("2S"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(g.tricks[0].1, seat(0));
    // Y4: the joker bids as the turn-up's printed suit.
    assert_eq!(bid_value(Card::BIG_JOKER, card("7H")), 2);
    assert_eq!(bid_value(Card::BIG_JOKER, card("QD")), 0);
    assert_eq!(bid_value(Card::BIG_JOKER, card("9S")), 1);
    assert_eq!(bid_value(Card::BIG_JOKER, card("2C")), 3);
}

#[test]
fn y3_with_a_nine_turned_up_the_joker_is_that_nine() {
    let rules = trick_rules(card("9S"));
    assert_eq!(rules.suit_of(Card::BIG_JOKER), suit_id::NINES);
    let winner = |text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    assert_eq!(winner("9D BJ"), 1, "9S > 9D");
    assert_eq!(winner("BJ 9H"), 1, "9H > 9S");
    assert_eq!(winner("AS BJ"), 1, "a nine trumps");
    // It bids as a spade.
    let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D"];
    let mut g = game(&["players=2"]);
    g.deal(&order_for(0, &hands, "9S")).unwrap();
    act(&mut g, 0, "place BJ");
    act(&mut g, 1, "place 2H");
    assert_eq!(g.target_of(seat(0)), 1);
    assert_eq!(g.target_of(seat(1)), 2);
}

#[test]
fn y4_bid_cards_are_placed_at_once_and_face_down() {
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    let before = g.observe(seat(3));
    assert_eq!(
        legal(&g, 1),
        ["place 4C", "place QS", "place KS", "place AS"]
    );
    act(&mut g, 1, "place 4C");
    act(&mut g, 4, "place 9H");
    // Nothing of it shows to seat 3, not even who has placed: the cards stay
    // in their hands and every seat stays listed to act.
    let o3 = g.observe(seat(3));
    assert_eq!(o3, before);
    assert_eq!(o3.to_act, SeatSet::all(5));
    assert!(o3.simultaneous);
    assert_eq!(o3.players[1].held, 4);
    assert_eq!(
        g.to_act().iter().map(Seat::index).collect::<Vec<_>>(),
        [0, 2, 3]
    );
    assert!(g.legal_actions(seat(1)).is_empty());
    assert_eq!(
        g.validate(seat(1), Action::Place(card("AS"))),
        Err(IllegalReason::NotYourTurn {
            to_act: SeatSet::EMPTY
        })
    );
    // Seat 1 sees its own choice in its history.
    let o1 = g.observe(seat(1));
    assert_eq!(
        o1.history.last(),
        Some(&Event::Action {
            seat: seat(1),
            action: Action::Place(card("4C"))
        })
    );
    assert_eq!(
        g.check(seat(2), Action::Place(card("AS"))),
        Err(IllegalReason::NotInHand(card("AS")))
    );
    act(&mut g, 2, "place 5D");
    act(&mut g, 0, "place TH");
    act(&mut g, 3, "place 5H");
    // Complete: a Hidden marker for every other seat, in seat order.
    let o3 = g.observe(seat(3));
    let hidden = |s: usize| Event::Hidden {
        seat: seat(s),
        kind: ActionKind::Place,
    };
    assert_eq!(
        o3.history[o3.history.len() - 4..],
        [hidden(0), hidden(1), hidden(2), hidden(4)]
    );
    assert_eq!(o3.history.last(), Some(&hidden(4)));
    assert_eq!(o3.hand, cards("2H 3H 4H"));
    assert!(o3.players.iter().all(|p| p.held == 3));
    // Its own bid card shows to seat 3 alone, with its target.
    assert_eq!(bid_cards_seen(&o3), [(3, "5H".to_string())]);
    assert_eq!(bids_seen(&o3), [None, None, None, Some(2), None]);
    assert_eq!(o3.note("bid-counts"), Some("1 1 1 1 1"));
    assert_eq!(o3.piles[1], ("bid-cards".to_string(), 4));
    assert!(!format!("{o3:?}").contains("4C"));
    // Targets: D = 0, S = 1, H = 2, C = 3.
    let targets: Vec<u8> = (0..5).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [2, 3, 0, 2, 2]);
    assert_eq!(
        YOGI_ORDER.map(suit_value),
        [0, 1, 2, 3],
        "D S H C is Yogi's order"
    );
    // A nine bids by its printed suit even while the nines are a suit.
    assert_eq!(bid_value(card("9H"), card("9D")), 2);
    assert_eq!(bid_value(card("9C"), Card::BIG_JOKER), 3);
}

#[test]
fn y5_at_most_one_declarer_and_a_reveal_ends_the_round() {
    let mut g = example_bid();
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "the dealer's left first"
    );
    assert_eq!(legal(&g, 1), ["no", "declare", "reveal"]);
    act(&mut g, 1, "declare");
    assert_eq!(legal(&g, 2), ["no", "reveal"]);
    assert_eq!(
        g.check(seat(2), Action::Declare),
        Err(IllegalReason::Rule {
            id: "Y5",
            text: "there is already a declarer: only `no` or `reveal`"
        })
    );
    let o = g.observe(seat(4));
    assert_eq!(o.phase, Phase::Declare);
    assert_eq!(o.contract, Some((seat(1), Action::Declare)));
    assert_eq!(o.note("declarer"), Some("1"));
    // Y7: the declarer's bid card stays face down for now.
    assert_eq!(bid_cards_seen(&o), [(4, "9H".to_string())]);
    act(&mut g, 2, "no");
    // Seat 3 reveals: the round ends at once (seats 4 and 0 are not asked)
    // and the declaration is cancelled.
    act(&mut g, 3, "reveal");
    assert_eq!(g.stage, Stage::Leader);
    assert_eq!(g.to_act(), SeatSet::single(seat(3)));
    let o = g.observe(seat(4));
    assert_eq!(o.contract, Some((seat(3), Action::Reveal)));
    assert_eq!(o.note("declarer"), Some("-"));
    assert_eq!(o.note("revealer"), Some("3"));
    act(&mut g, 3, "lead 1");
    seat_1_takes_three_spade_tricks(&mut g);
    // Seats 1 (3 of 3) and 2 (0 of 0) made: m = 2. Seat 3 revealed and
    // missed (0 of 2): 3 + 8. Seats 4 and 0 missed: 3. Seat 1's cancelled
    // declaration counts for nothing.
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [0, 3, 0, 0, 0]);
    assert_eq!(r.made, [false, true, true, false, false].map(Some));
    assert_eq!(r.points, [3, 0, 0, 11, 3]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; \
         revealed by 3 (missed), cancelling 1's declaration"
    );
}

#[test]
fn y5_y8_nobody_calls_and_the_dealers_left_leads() {
    let mut g = example_bid();
    for s in [1, 2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    let o = g.observe(seat(0));
    assert_eq!(o.contract, None);
    assert_eq!(o.note("leader"), Some("1"));
    seat_1_takes_three_spade_tricks(&mut g);
    // Y8: three tricks, then the hand is over. m = 2: the three others pay 3.
    assert_eq!(g.tricks.len(), 3);
    assert_eq!(g.status(), Status::Deal);
    let r = &g.hand_results()[0];
    assert_eq!(r.points, [3, 0, 0, 3, 3]);
    assert_eq!(r.totals, [3, 0, 0, 3, 3]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0"
    );
    assert_eq!(g.dealer(), seat(1), "the deal passes left");
}

#[test]
fn y6_the_revealers_card_at_once_its_leader_and_its_hand_after_the_first_card() {
    let mut g = example_bid();
    act(&mut g, 1, "no");
    act(&mut g, 2, "reveal");
    // Y6: seat 2's bid card is public at once, with its target.
    let o = g.observe(seat(4));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(2),
            cards: cards("5D")
        })
    );
    assert_eq!(
        bid_cards_seen(&o),
        [(2, "5D".to_string()), (4, "9H".to_string())]
    );
    assert_eq!(bids_seen(&o), [None, None, Some(0), None, Some(2)]);
    assert_eq!(o.players[2].known, CardSet::EMPTY, "not the hand yet");
    assert_eq!(o.phase, Phase::Choose);
    // The revealer names any seat to lead, itself included.
    assert_eq!(
        legal(&g, 2),
        ["lead 0", "lead 1", "lead 2", "lead 3", "lead 4"]
    );
    assert_eq!(
        g.check(seat(2), Action::Leader(seat(7))),
        Err(IllegalReason::OutOfRange { min: 0, max: 4 })
    );
    assert_eq!(g.check(seat(2), Action::No), Err(IllegalReason::WrongPhase));
    act(&mut g, 2, "lead 1");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(g.observe(seat(0)).note("leader"), Some("1"));
    act(&mut g, 1, "AS");
    // After the first card the revealer's whole hand is public.
    let o = g.observe(seat(4));
    assert_eq!(o.players[2].known, cards("2D 3D 4D"));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(2),
            cards: cards("2D 3D 4D")
        })
    );
    assert!(g.seen_by(seat(4)).contains(card("3D")));
    act(&mut g, 2, "2D");
    assert_eq!(g.observe(seat(0)).players[2].known, cards("3D 4D"));
    for s in [3, 4, 0] {
        let a = g.legal_actions(seat(s))[0];
        g.apply(seat(s), a).unwrap();
    }
    for lead in ["KS", "QS"] {
        act(&mut g, 1, lead);
        for s in [2, 3, 4, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
    }
    // The revealer (seat 2) made: m = 2; +4 to every other seat. Seat 1
    // made: 4; seats 3, 4, 0 missed: 3 + 4.
    let r = &g.hand_results()[0];
    assert_eq!(r.points, [7, 4, 0, 7, 7]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; revealed by 2 (made)"
    );
}

#[test]
fn y7_the_declarers_card_turns_up_after_the_first_card() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    let o = g.observe(seat(3));
    assert_eq!(o.contract, Some((seat(1), Action::Declare)));
    assert_eq!(bid_cards_seen(&o), [(3, "5H".to_string())]);
    assert_eq!(o.players[1].bid, None);
    assert!(!g.seen_by(seat(3)).contains(card("4C")));
    act(&mut g, 1, "AS");
    let o = g.observe(seat(3));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(1),
            cards: cards("4C")
        })
    );
    assert_eq!(
        bid_cards_seen(&o),
        [(1, "4C".to_string()), (3, "5H".to_string())]
    );
    assert_eq!(o.players[1].bid, Some(Action::Bid(3)));
    assert_eq!(
        o.players[1].known,
        CardSet::EMPTY,
        "a declarer's hand stays hidden"
    );
    assert!(g.seen_by(seat(3)).contains(card("4C")));
}

#[test]
fn y9_the_sources_example_two_make_and_one_of_them_declared() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    seat_1_takes_three_spade_tricks(&mut g);
    // Seat 1 (declared, 3 of 3) and seat 2 (0 of 0) made: m = 2. The other
    // maker pays the declarer's 2; the three others 3 + 2 = 5.
    let r = &g.hand_results()[0];
    assert_eq!(r.bids, [2, 3, 0, 2, 2].map(|t| Some(Action::Bid(t))));
    assert_eq!(r.tricks, [0, 3, 0, 0, 0]);
    assert_eq!(r.points, [5, 0, 2, 5, 5]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; declared by 1 (made)"
    );
}

#[test]
fn y9_fines_by_hand() {
    let s = |i| Some(seat(i));
    // The source's example.
    assert_eq!(
        fines(&[false, true, true, false, false], s(1), None),
        [5, 0, 2, 5, 5]
    );
    // Two make, nobody calls: the three others pay 3.
    assert_eq!(
        fines(&[false, true, true, false, false], None, None),
        [3, 0, 0, 3, 3]
    );
    // Nobody makes: everyone pays 1.
    assert_eq!(fines(&[false; 4], None, None), [1, 1, 1, 1]);
    // A declarer who missed pays 4 on top of m + 1 (m = 1: 2 + 4).
    assert_eq!(fines(&[true, false, false], s(1), None), [0, 6, 2]);
    // A revealer who made: 4 to every other seat (m = 1, 2 + 4 for misses).
    assert_eq!(fines(&[true, false, false], None, s(0)), [0, 6, 6]);
    // A revealer who missed pays 8 on top (m = 2: 3 + 8).
    assert_eq!(fines(&[true, true, false], None, s(2)), [0, 0, 11]);
    // Everyone makes: nobody pays, but a declarer's 2 still goes to the others.
    assert_eq!(fines(&[true, true], None, None), [0, 0]);
    assert_eq!(fines(&[true, true], s(0), None), [0, 2]);
}

#[test]
fn y10_every_bid_card_is_public_at_the_end_of_the_hand() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    seat_1_takes_three_spade_tricks(&mut g);
    let o = g.observe(seat(3));
    assert_eq!(o.phase, Phase::Deal);
    let every: Vec<(usize, String)> = (0..5).map(|s| (s, EXAMPLE_BIDS[s].to_string())).collect();
    assert_eq!(bid_cards_seen(&o), every);
    assert_eq!(bids_seen(&o), [2, 3, 0, 2, 2].map(Some));
    // One Reveal per seat not yet shown (seat 1 was, after the first card).
    let reveals: Vec<usize> = o
        .history
        .iter()
        .rev()
        .skip(1)
        .take(4)
        .map(|e| match e {
            Event::Reveal { seat, .. } => seat.index(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(reveals, [4, 3, 2, 0]);
    assert_eq!(o.history.last(), Some(&Event::HandEnd { deal: 0 }));
    for (s, bid) in EXAMPLE_BIDS.iter().enumerate() {
        assert!(g.seen_by(seat(s)).contains(card(bid)));
        assert_eq!(
            g.seen_by(seat(s)).len(),
            21,
            "every card dealt and the turn-up"
        );
    }
}

#[test]
fn y11_a_match_is_two_deals_per_seat_and_the_lowest_total_wins() {
    assert_eq!(game(&[]).config().hands, 10);
    assert_eq!(game(&["players=3"]).config().hands, 6);
    assert_eq!(game(&["players=3", "hands=1"]).config().hands, 1);
    let mut g = game(&["players=3"]);
    assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
    let seed = Seed::from_u64(8);
    let mut dealers = Vec::new();
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            dealers.push(g.dealer().index());
            continue;
        }
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
    assert_eq!(dealers, [0, 1, 2, 0, 1, 2], "each seat deals twice");
    let m = g.result().unwrap();
    assert_eq!(m.hands, 6);
    assert_eq!(m.order, ScoreOrder::LowerIsBetter);
    let sum = |s: usize| g.hand_results().iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(m.totals, [sum(0), sum(1), sum(2)]);
    for s in 0..3 {
        let better = m.totals.iter().filter(|&&t| t < m.totals[s]).count();
        assert_eq!(m.ranks[s] as usize, 1 + better);
    }
    // Lower is better in the ranks.
    let r = MatchResult::by_totals(vec![9, 2, 5], vec![0, 1, 2], ScoreOrder::LowerIsBetter, 6);
    assert_eq!(r.ranks, [3, 1, 2]);
}

/// Y12 with three seats, dealer 0, h = 3 and 2C turned up. Seat 1 bids
/// one card (3D: 0), seat 2 two (4S 5S: 2), seat 0 one (KD: 0).
const CHOOSER: [&str; 3] = ["7H 8D KD", "5H 6H 3D", "AH 4S 5S"];

fn chooser_bid(options: &[&str]) -> Yogi {
    let mut g = game(options);
    g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
    act(&mut g, 0, "size 3");
    act(&mut g, 1, "count 1");
    act(&mut g, 1, "place 3D");
    act(&mut g, 2, "count 2");
    act(&mut g, 2, "place 4S");
    act(&mut g, 2, "place 5S");
    act(&mut g, 0, "count 1");
    act(&mut g, 0, "place KD");
    g
}

#[test]
fn y12_the_dealer_chooses_the_size_and_bids_are_sequential() {
    let mut g = game(&["players=3", "dealer-chooses=true", "hands=1"]);
    assert!(g.accepts(ActionKind::HandSize));
    assert!(!game(&[]).accepts(ActionKind::HandSize));
    assert!(game(&[]).parse_action("size 3").is_err());
    g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
    // The dealer chooses before any card is dealt: nobody holds or sees any.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Choose);
    assert_eq!(o.hand, CardSet::EMPTY);
    assert_eq!(o.table, []);
    assert_eq!(o.trump, Trump::Undecided);
    assert_eq!(o.note("hand-size"), Some("-"));
    assert_eq!(g.seen_by(seat(0)), CardSet::EMPTY);
    // 2 ≤ h and 3h + 1 ≤ 53: 2..=17.
    let sizes = g.legal_actions(seat(0));
    assert_eq!(sizes.first(), Some(&Action::HandSize(2)));
    assert_eq!(sizes.last(), Some(&Action::HandSize(17)));
    assert_eq!(sizes.len(), 16);
    assert_eq!(
        g.check(seat(0), Action::HandSize(18)),
        Err(IllegalReason::OutOfRange { min: 2, max: 17 })
    );
    act(&mut g, 0, "size 3");
    assert_eq!(g.hands[1], cards("5H 6H 3D"));
    assert_eq!(g.turn_up, Some(card("2C")));
    assert_eq!(g.observe(seat(2)).note("hand-size"), Some("3"));
    // Sequential from the dealer's left: a count (1..=h-1), then the cards.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert!(!g.simultaneous());
    assert_eq!(legal(&g, 1), ["count 1", "count 2"]);
    act(&mut g, 1, "count 1");
    assert_eq!(g.observe(seat(0)).note("bid-counts"), Some("- 1 -"));
    act(&mut g, 1, "place 3D");
    act(&mut g, 2, "count 2");
    act(&mut g, 2, "place 4S");
    // Others see that seat 2 placed a card, not which.
    let o0 = g.observe(seat(0));
    assert_eq!(
        o0.history.last(),
        Some(&Event::Hidden {
            seat: seat(2),
            kind: ActionKind::Place
        })
    );
    assert_eq!(o0.players[2].held, 2);
    assert_eq!(o0.players[1].bid, None);
    let o2 = g.observe(seat(2));
    assert_eq!(bid_cards_seen(&o2), [(2, "4S".to_string())]);
    assert_eq!(o2.players[2].bid, None, "not complete yet");
    act(&mut g, 2, "place 5S");
    assert_eq!(g.observe(seat(2)).players[2].bid, Some(Action::Bid(2)));
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    act(&mut g, 0, "count 1");
    act(&mut g, 0, "place KD");
    assert_eq!(g.stage, Stage::Declare);
    assert_eq!(g.observe(seat(1)).note("bid-counts"), Some("1 1 2"));
    let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [0, 0, 2]);
}

#[test]
fn y12_empty_hands_are_skipped_and_a_winner_without_cards_passes_the_lead() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "hands=1"]);
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    // Trick 1: 5H, AH (seat 2's last card) wins, 7H.
    act(&mut g, 1, "5H");
    act(&mut g, 2, "AH");
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    act(&mut g, 0, "7H");
    assert_eq!(g.tricks[0].1, seat(2));
    // Seat 2 has no cards: the next seat clockwise holding cards, seat 0, leads.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    let o = g.observe(seat(1));
    assert!(!o.players[2].active);
    assert!(o.players[0].active);
    act(&mut g, 0, "8D");
    // Seat 2 is skipped; seat 1 follows and the trick is complete.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "6H");
    assert_eq!(g.tricks[1].0.len(), 2);
    assert_eq!(g.tricks[1].1, seat(0));
    // Tricks 1 0 1 against targets 0 0 2: seat 1 made (m = 1); the others pay 2.
    assert!(g.is_over());
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [1, 0, 1]);
    assert_eq!(r.points, [2, 0, 2]);
    assert_eq!(
        r.summary,
        "size 3; turn-up 2C (trump C); targets 0 0 2; tricks 1 0 1"
    );
}

#[test]
fn y12_a_declare_or_reveal_shows_every_bid_card_of_the_seat() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
    act(&mut g, 1, "no");
    act(&mut g, 2, "reveal");
    let o = g.observe(seat(0));
    assert_eq!(
        bid_cards_seen(&o),
        [
            (0, "KD".to_string()),
            (2, "4S".to_string()),
            (2, "5S".to_string())
        ]
    );
    assert_eq!(o.players[2].bid, Some(Action::Bid(2)));
    act(&mut g, 2, "lead 2");
    act(&mut g, 2, "AH");
    // The revealer's hand (now empty) is public; seat 2 sits out from now on.
    let o = g.observe(seat(0));
    assert_eq!(o.players[2].known, CardSet::EMPTY);
    assert_eq!(o.players[2].held, 0);
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
    act(&mut g, 1, "no");
    act(&mut g, 2, "declare");
    act(&mut g, 0, "no");
    assert_eq!(bid_cards_seen(&g.observe(seat(1))), [(1, "3D".to_string())]);
    act(&mut g, 1, "5H");
    assert_eq!(
        bid_cards_seen(&g.observe(seat(1))),
        [
            (1, "3D".to_string()),
            (2, "4S".to_string()),
            (2, "5S".to_string())
        ]
    );
}

#[test]
fn y13_a_majority_passes_every_bid_card_left() {
    let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"];
    let mut g = game(&["players=3", "rotate-vote=true", "hands=1"]);
    g.deal(&order_for(0, &hands, "2C")).unwrap();
    act(&mut g, 0, "place 2D");
    act(&mut g, 1, "place 2H");
    act(&mut g, 2, "place 2S");
    // The vote: simultaneous; nothing shows until every seat has voted.
    assert_eq!(g.stage, Stage::Vote);
    assert!(g.simultaneous());
    assert_eq!(legal(&g, 0), ["vote yes", "vote no"]);
    let before = g.observe(seat(2));
    act(&mut g, 0, "vote yes");
    act(&mut g, 1, "vote no");
    assert_eq!(g.observe(seat(2)), before);
    assert_eq!(g.observe(seat(2)).to_act, SeatSet::all(3));
    act(&mut g, 2, "vote yes");
    // Two of three said yes: a strict majority. 2D goes to seat 1, 2H to
    // seat 2, 2S to seat 0.
    assert_eq!(g.stage, Stage::Declare);
    assert_eq!(g.bids[..3], [cards("2S"), cards("2D"), cards("2H")]);
    let o2 = g.observe(seat(2));
    assert_eq!(o2.note("rotated"), Some("yes"));
    // Every vote shows once the step is complete, in seat order.
    let votes: Vec<Event> = o2
        .history
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Action {
                    action: Action::Vote(_),
                    ..
                }
            )
        })
        .copied()
        .collect();
    let vote = |s: usize, v: bool| Event::Action {
        seat: seat(s),
        action: Action::Vote(v),
    };
    assert_eq!(votes, [vote(0, true), vote(1, false), vote(2, true)]);
    let all_votes = g
        .log()
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                Event::Action {
                    action: Action::Vote(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(all_votes, 3, "each vote once in the hand's log");
    // Seat 2 sees the card it receives (2H from seat 1) and the one it
    // gives (2S to seat 0); of 2D passing from seat 0 to seat 1 it sees
    // only that a card passed.
    let take = |r: usize, c: Option<&str>, g: usize| Event::Take {
        seat: seat(r),
        card: c.map(card),
        from: Source::Seat(seat(g)),
    };
    let tail = [
        take(1, None, 0),
        take(2, Some("2H"), 1),
        take(0, Some("2S"), 2),
    ];
    assert!(o2.history.ends_with(&tail), "{:?}", o2.history);
    assert_eq!(
        bid_cards_seen(&o2),
        [(0, "2S".to_string()), (2, "2H".to_string())]
    );
    assert_eq!(bids_seen(&o2), [Some(1), None, Some(2)]);
    assert_eq!(g.seen_by(seat(2)), cards("2S 3S 4S 5S 2H 2C"));
    // Seat 2's target is now 2 (hearts): it holds no heart and wins nothing.
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    for _ in 0..3 {
        for s in [1, 2, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
    }
    // Seat 1 leads hearts each time and wins: tricks 0 3 0 against targets
    // 1 (2S), 0 (2D), 2 (2H): nobody made; everyone pays 1.
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [0, 3, 0]);
    assert_eq!(r.bids, [1, 0, 2].map(|t| Some(Action::Bid(t))));
    assert_eq!(r.points, [1, 1, 1]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); bids rotated; targets 1 0 2; tricks 0 3 0"
    );
}

#[test]
fn y13_a_tie_is_no_majority() {
    let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S", "6D 7D 8D TD"];
    let mut g = game(&["players=4", "rotate-vote=true"]);
    g.deal(&order_for(0, &hands, "2C")).unwrap();
    for (s, c) in [(0, "2D"), (1, "2H"), (2, "2S"), (3, "6D")] {
        act(&mut g, s, &format!("place {c}"));
    }
    for (s, v) in [(0, "yes"), (1, "yes"), (2, "no"), (3, "no")] {
        act(&mut g, s, &format!("vote {v}"));
    }
    assert_eq!(
        g.bids[..4],
        [cards("2D"), cards("2H"), cards("2S"), cards("6D")]
    );
    let o = g.observe(seat(0));
    assert_eq!(o.note("rotated"), Some("no"));
    assert_eq!(bid_cards_seen(&o), [(0, "2D".to_string())]);
    assert!(!o.history.iter().any(|e| matches!(e, Event::Take { .. })));
}

#[test]
fn y12_y13_groups_of_bid_cards_pass_as_one() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "rotate-vote=true"]);
    assert_eq!(g.stage, Stage::Vote);
    for s in [0, 1, 2] {
        act(&mut g, s, "vote yes");
    }
    // Seat 2's 4S 5S go to seat 0, seat 1's 3D to seat 2, seat 0's KD to seat 1.
    assert_eq!(g.bids[..3], [cards("4S 5S"), cards("KD"), cards("3D")]);
    let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [2, 0, 0]);
    let o1 = g.observe(seat(1));
    assert_eq!(
        bid_cards_seen(&o1),
        [(1, "KD".to_string()), (2, "3D".to_string())]
    );
    assert_eq!(o1.piles[1], ("bid-cards".to_string(), 2));
    let takes = o1
        .history
        .iter()
        .filter(|e| matches!(e, Event::Take { card: None, .. }))
        .count();
    assert_eq!(
        takes, 2,
        "seat 1 sees two cards pass from 2 to 0, face down"
    );
    // The hands are untouched: trick play as before.
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    for (s, c) in [(1, "5H"), (2, "AH"), (0, "7H"), (0, "8D"), (1, "6H")] {
        act(&mut g, s, c);
    }
    // Tricks 1 0 1 against targets 2 0 0: seat 1 made (m = 1); the others pay 2.
    assert_eq!(g.hand_results()[0].points, [2, 0, 2]);
}

#[test]
fn observations_at_each_decision_show_exactly_what_is_public() {
    // Seat 4 watches the example hand with a declaration by seat 1.
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    let w = seat(4);
    let o = g.observe(w);
    assert_eq!(o.hand, cards(EXAMPLE[4]));
    assert_eq!(table(&o), [("turn-up".to_string(), None, "2C".to_string())]);
    assert_eq!(o.trump, Trump::Suit(Suit::Clubs));
    assert_eq!(o.note("joker"), Some("2C"));
    assert!(o.players.iter().all(|p| p.bid.is_none()));
    for s in [4, 2, 0, 3, 1] {
        act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
    }
    act(&mut g, 1, "declare");
    act(&mut g, 2, "no");
    act(&mut g, 3, "no");
    let o = g.observe(w);
    assert_eq!(o.to_act, SeatSet::single(w));
    assert_eq!(legal(&g, 4), ["no", "reveal"]);
    let known_to_4 = cards("6H 7H 8H 9H 2C");
    assert_eq!(g.seen_by(w), known_to_4);
    // No card seat 4 has not seen is named anywhere in what it observes.
    let text = format!("{o:?}");
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for c in decks::WITH_ONE_JOKER.minus(known_to_4) {
        assert!(!words.contains(&c.to_string().as_str()), "{c} in {text}");
    }
    assert!(o.players.iter().all(|p| p.known.is_empty() || p.seat == w));
    act(&mut g, 4, "no");
    act(&mut g, 0, "no");
    act(&mut g, 1, "AS");
    let o = g.observe(w);
    assert_eq!(o.trick.cards, [(Player::Seat(seat(1)), card("AS"))]);
    assert_eq!(bids_seen(&o), [None, Some(3), None, None, Some(2)]);
    assert_eq!(g.seen_by(w), known_to_4.or(cards("AS 4C")));
}

#[test]
fn options_resolve_and_round_trip() {
    let g = game(&[]);
    assert_eq!(
        g.options().to_string(),
        "dealer-chooses=false hands=10 players=5 rotate-vote=false"
    );
    for given in [
        &["players=2"][..],
        &["players=13", "hands=3", "dealer-chooses=true"],
        &["rotate-vote=true", "hands=auto", "players=7"],
    ] {
        let g = game(given);
        let again = Yogi::new(&g.options()).unwrap();
        assert_eq!(again.config(), g.config(), "{given:?}");
    }
    for bad in [
        "hands=0",
        "hands=unset",
        "players=0",
        "dealer-chooses=yes",
        "rotate-vote=1",
        "target=5",
    ] {
        assert!(
            Yogi::new(&Options::parse(&[bad]).unwrap()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn illegal_actions_have_precise_reasons() {
    let mut g = game(&["dealer-chooses=true", "players=4"]);
    assert_eq!(
        g.validate(seat(0), Action::HandSize(3)),
        Err(IllegalReason::AwaitingDeal)
    );
    g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
    assert_eq!(
        g.check(seat(0), Action::Count(1)),
        Err(IllegalReason::WrongPhase)
    );
    assert_eq!(
        g.validate(seat(1), Action::HandSize(3)),
        Err(IllegalReason::NotYourTurn {
            to_act: SeatSet::single(seat(0))
        })
    );
    act(&mut g, 0, "size 5");
    assert_eq!(
        g.check(seat(1), Action::Count(5)),
        Err(IllegalReason::OutOfRange { min: 1, max: 4 })
    );
    assert!(g.check(seat(1), Action::Count(0)).is_err());
    assert!(g.parse_action("give 2C").is_err());
    assert!(
        g.parse_action("vote yes").is_err(),
        "no vote without rotate-vote"
    );
    assert!(matches!(
        g.resolve(seat(1), "AS"),
        Err(crate::error::ActionError::Illegal(_))
    ));
}

/// Plays random legal actions from a seeded shuffler.
fn random_steps(g: &mut Yogi, rng: &mut Shuffler, steps: usize) -> Vec<(Seat, Action)> {
    let mut done = Vec::new();
    while g.status() == Status::Act && done.len() < steps {
        let to_act: Vec<Seat> = g.to_act().iter().collect();
        let s = to_act[rng.below(to_act.len() as u32) as usize];
        let legal = g.legal_actions(s);
        let a = legal[rng.below(legal.len() as u32) as usize];
        g.apply(s, a).unwrap();
        done.push((s, a));
    }
    done
}

const OPTION_SETS: [&[&str]; 5] = [
    &["hands=3"],
    &["players=2", "dealer-chooses=true", "hands=3"],
    &["players=13", "rotate-vote=true", "hands=2"],
    &[
        "players=7",
        "dealer-chooses=true",
        "rotate-vote=true",
        "hands=2",
    ],
    &["players=13", "dealer-chooses=true", "hands=2"],
];

#[test]
fn legal_actions_agree_with_check() {
    let mut universe = vec![
        Action::No,
        Action::Declare,
        Action::Reveal,
        Action::Vote(true),
        Action::Vote(false),
        Action::Pass,
    ];
    for c in decks::WITH_TWO_JOKERS {
        universe.extend([Action::Play(c), Action::Place(c)]);
    }
    for k in 0..30 {
        universe.extend([Action::HandSize(k), Action::Count(k)]);
    }
    universe.extend((0..MAX_SEATS).map(|i| Action::Leader(Seat::new(i))));
    for (n, options) in OPTION_SETS.iter().enumerate() {
        for seed in 0..6u64 {
            let mut g = game(options);
            let mut rng = Shuffler::new(Seed::from_u64(1000 + seed));
            while !g.is_over() {
                if deal_if_needed(&mut g, Seed::from_u64(seed * 7 + n as u64)).unwrap() {
                    continue;
                }
                for s in Seat::all(g.seats()) {
                    let legal = g.legal_actions(s);
                    for &a in &universe {
                        assert_eq!(
                            g.validate(s, a).is_ok(),
                            legal.contains(&a),
                            "{options:?} seed {seed}: {s} {a}"
                        );
                    }
                }
                random_steps(&mut g, &mut rng, 1);
            }
        }
    }
}

#[test]
fn observations_do_not_depend_on_unseen_cards() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        for seed in 0..25u64 {
            let mut g = game(options);
            let order = deck_order(Seed::from_u64(seed * 11 + n as u64), g.deck());
            g.deal(&order).unwrap();
            let mut rng = Shuffler::new(Seed::from_u64(seed));
            let steps = rng.below(120) as usize;
            let done = random_steps(&mut g, &mut rng, steps);
            for s in Seat::all(g.seats()) {
                let seen = g.seen_by(s);
                // Re-deal the unseen cards among their own positions; the
                // placed cards follow their cards, and each nine and the
                // joker stay (a nine changes suit under Y2).
                let movable =
                    |c: Card| !seen.contains(c) && c.rank() != Some(Rank::Nine) && !c.is_joker();
                for suit in Suit::ALL {
                    let hidden: Vec<usize> = (0..order.len())
                        .filter(|&i| movable(order[i]) && order[i].suit() == Some(suit))
                        .collect();
                    let mut moved: Vec<Card> = hidden.iter().map(|&i| order[i]).collect();
                    rng.shuffle(&mut moved);
                    let mut map = [None; Card::COUNT];
                    for (&i, &c) in hidden.iter().zip(&moved) {
                        map[order[i].index()] = Some(c);
                    }
                    let remap = |c: Card| map[c.index()].unwrap_or(c);
                    let other: Vec<Card> = order.iter().map(|&c| remap(c)).collect();
                    let mut h = game(options);
                    h.deal(&other).unwrap();
                    for &(who, a) in &done {
                        let a = a.card().map_or(a, |c| a.with_card(remap(c)));
                        h.apply(who, a)
                            .unwrap_or_else(|e| panic!("{options:?} seed {seed} seat {s}: {e}"));
                    }
                    assert_eq!(
                        h.observe(s),
                        g.observe(s),
                        "{options:?} seed {seed} seat {s}"
                    );
                    assert_eq!(h.legal_actions(s), g.legal_actions(s));
                    assert_eq!(h.seen_by(s), seen);
                }
            }
        }
    }
}

#[test]
fn random_matches_end_totals_add_up_and_the_log_never_grows() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        let mut g = game(options);
        let seed = Seed::from_u64(n as u64);
        let mut rng = Shuffler::new(seed);
        let log_buffer = g.core.log.as_ptr();
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            random_steps(&mut g, &mut rng, usize::MAX);
            assert!(g.core.log.len() <= LOG_CAPACITY);
        }
        assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
        let results = g.hand_results();
        for r in results {
            let dealt = r.tricks.iter().map(|&t| t as usize).sum::<usize>();
            assert!(dealt >= 1);
            assert!(r.bids.iter().all(Option::is_some));
        }
        let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
        let totals: Vec<i32> = (0..g.seats()).map(sum).collect();
        assert_eq!(g.result().unwrap().totals, totals);
    }
}

#[test]
fn the_largest_hand_fits_the_log() {
    // Two seats, 26 cards each, the longest Y12 hand: one bid card each,
    // then 25 tricks; and thirteen seats of four with every option.
    for (options, size) in [
        (
            &["players=2", "dealer-chooses=true", "rotate-vote=true"][..],
            "size 26",
        ),
        (
            &["players=13", "dealer-chooses=true", "rotate-vote=true"],
            "size 4",
        ),
    ] {
        let mut g = game(options);
        g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
        let s = g.to_act().first().unwrap();
        act(&mut g, s.index(), size);
        while g.status() == Status::Act {
            let s = g.to_act().first().unwrap();
            let legal = g.legal_actions(s);
            // The most cards bid and a rotation: the last count, `vote yes`.
            let a = match legal[0] {
                Action::Count(_) => *legal.last().unwrap(),
                a => a,
            };
            g.apply(s, a).unwrap();
        }
        assert!(g.core.log.len() <= LOG_CAPACITY, "{}", g.core.log.len());
    }
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Yogi.new_game(&Options::new()).unwrap();
    assert_eq!("yogi".parse::<Variant>().unwrap(), Variant::Yogi);
    assert_eq!(g.seats(), 5);
    assert_eq!(g.deck().len(), 53);
    assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Yogi);
}
