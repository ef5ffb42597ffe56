//! Scenario tests of honeymoon, named by the decision ids of docs/rules.

use super::*;
use crate::dealing::Seed;
use crate::games::testing::{
    act, card, cards, hand_start, options_round_trip, play_random_match, seat, trick_winner,
};

/// A deck order that deals `hands[s]` to seat `s` when `dealer` deals and
/// leaves `stock` (top first, order kept) as the stock.
fn order_for(hands: [&str; 2], stock: &str, dealer: usize) -> Vec<Card> {
    let hands = hands.map(|h| cards(h).to_vec());
    assert!(hands.iter().all(|h| h.len() == HAND));
    let first = 1 - dealer;
    let mut order: Vec<Card> = (0..SEATS * HAND)
        .map(|i| hands[(first + i) % 2][i / 2])
        .collect();
    order.extend(stock.split_whitespace().map(card));
    assert_eq!(order.len(), 54);
    order
}

fn game(options: &[&str]) -> Honeymoon {
    Honeymoon::new(&Options::parse(options).unwrap()).unwrap()
}

fn legal(g: &Honeymoon, s: usize) -> CardSet {
    g.legal_actions(seat(s))
        .iter()
        .map(|a| a.card().unwrap())
        .collect()
}

fn play_first_legal_to_end_of_hand(g: &mut Honeymoon) {
    while g.status() == Status::Act {
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
}

const SPADES: &str = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS";
const CLUBS: &str = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC";

/// Dealer 0. Seat 1 leads spades and seat 0 throws clubs for 13 tricks, so
/// seat 1 takes the even stock cards (the hearts, 2H turned up: hearts are
/// trump) and seat 0 the odd ones (LJ and 2D..KD). Then AD lies face up and
/// BJ under it.
const HEARTS_STOCK: &str =
    "2H LJ 3H 2D 4H 3D 5H 4D 6H 5D 7H 6D 8H 7D 9H 8D TH 9D JH TD QH JD KH QD AH KD AD BJ";

fn hearts_deal(options: &[&str]) -> Honeymoon {
    let mut g = game(options);
    g.deal(&order_for([CLUBS, SPADES], HEARTS_STOCK, 0))
        .unwrap();
    g
}

/// Dealer 0, the same shape with LJ turned up: seat 1 draws LJ and 2H..KH,
/// seat 0 draws 2D..AD; then AH lies face up and BJ under it.
const JOKER_STOCK: &str =
    "LJ 2D 2H 3D 3H 4D 4H 5D 5H 6D 6H 7D 7H 8D 8H 9D 9H TD TH JD JH QD QH KD KH AD AH BJ";

fn joker_deal(options: &[&str]) -> Honeymoon {
    let mut g = game(options);
    g.deal(&order_for([CLUBS, SPADES], JOKER_STOCK, 0)).unwrap();
    g
}

/// The first 13 tricks of both shapes: seat 1 leads 2S..AS, seat 0 throws
/// 2C..AC; seat 1 wins every one (spades led, no trump played).
fn spades_against_clubs(g: &mut Honeymoon) {
    for (s, c) in cards(SPADES).iter().zip(cards(CLUBS).iter()) {
        act(g, 1, &s.to_string());
        act(g, 0, &c.to_string());
        assert_eq!(
            g.core.tricks.done().last().unwrap().1,
            Player::Seat(seat(1))
        );
    }
}

/// The whole hearts hand: 13 spade tricks; 2H beats 2D (seat 1 takes AD,
/// seat 0 BJ); in phase 2 LJ beats 3H, BJ beats AH, AD beats 3D, and seat 1
/// takes the last ten with hearts. Tricks: phase 1 0-14, phase 2 2-11.
fn play_hearts_hand(g: &mut Honeymoon) {
    spades_against_clubs(g);
    for (s, c) in [
        (1, "2H"),
        (0, "2D"),
        (1, "3H"),
        (0, "LJ"),
        (0, "BJ"),
        (1, "AH"),
    ] {
        act(g, s, c);
    }
    act(g, 0, "3D");
    act(g, 1, "AD");
    play_first_legal_to_end_of_hand(g);
    assert_eq!(g.won, [[0, 14], [2, 11]]);
}

/// A sweep: the non-dealer holds BJ LJ AS..4S and, winning every phase-1
/// trick, draws 3S (turned up: spades are trump), 2S and AH..3H; the dealer
/// holds the clubs and draws 2H and the diamonds. The non-dealer then holds
/// every trump and every heart above 2H, so it wins all 27 tricks whatever
/// either seat plays.
fn sweep_order(dealer: usize) -> Vec<Card> {
    let strong = "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S";
    let stock =
        "3S 2H 2S 2D AH 3D KH 4D QH 5D JH 6D TH 7D 9H 8D 8H 9D 7H TD 6H JD 5H QD 4H KD 3H AD";
    let mut hands = [CLUBS; 2];
    hands[1 - dealer] = strong;
    order_for(hands, stock, dealer)
}

#[test]
fn h5_worked_number_from_the_source() {
    // "A player who wins 15 tricks scores 2 points (15-13 = 2)."
    assert_eq!(score(Scoring::Standard, [8, 6], [7, 6]), [2, 0]);
    // 13 or fewer score nothing; all 27 score 14, the game.
    assert_eq!(score(Scoring::Standard, [7, 7], [6, 7]), [0, 1]);
    assert_eq!(score(Scoring::Standard, [0, 14], [0, 13]), [0, 14]);
}

#[test]
fn h7_scoring_modes_by_hand() {
    // Phase 1 6-8, phase 2 4-9: 10 and 17 tricks.
    let (p1, p2) = ([6, 8], [4, 9]);
    assert_eq!(score(Scoring::Standard, p1, p2), [0, 4]);
    assert_eq!(score(Scoring::Phase2Only, p1, p2), [0, 3]);
    assert_eq!(score(Scoring::PerTrick, p1, p2), [10, 17]);
    assert_eq!(score(Scoring::Parlett, p1, p2), [6 + 8, 8 + 18]);
    // Phase 2 7-6: the seat with more phase-2 tricks scores one, even with
    // fewer tricks in all.
    assert_eq!(score(Scoring::Phase2Only, [2, 12], [7, 6]), [1, 0]);
}

#[test]
fn h1_deal_alternates_from_the_non_dealer_and_turns_up_the_stock_top() {
    let order: Vec<Card> = decks::WITH_TWO_JOKERS.to_vec();
    let mut g = game(&[]);
    g.deal(&order).unwrap();
    // Seat 0 deals: seat 1 gets the 1st, 3rd, ... card, seat 0 the 2nd, 4th, ...
    assert_eq!(g.hands[1], cards("2C 4C 6C 8C TC QC AC 3D 5D 7D 9D JD KD"));
    assert_eq!(g.hands[0], cards("3C 5C 7C 9C JC KC 2D 4D 6D 8D TD QD AD"));
    // The 27th card tops the 28-card stock, face up: hearts are trump.
    assert_eq!(g.stock.as_slice(), &order[26..]);
    let o = g.observe(seat(0));
    assert_eq!(o.trump, Trump::Suit(Suit::Hearts));
    assert_eq!(o.note("trump"), Some("H"));
    assert_eq!(
        o.table,
        [
            TableCard {
                label: "turn-up".into(),
                owner: None,
                card: card("2H")
            },
            TableCard {
                label: "stock-top".into(),
                owner: None,
                card: card("2H")
            }
        ]
    );
    assert_eq!(o.piles, [("stock".to_string(), 27)]);
    assert_eq!(o.note("stock"), Some("28"));
    assert_eq!(o.note("phase"), Some("1"));
    assert_eq!(o.history[..2], hand_start(0, seat(0), seat(0), g.hands[0]));
    assert_eq!(o.history[2], Event::TurnUp { card: card("2H") });
    assert_eq!(
        g.seen_by(seat(0)),
        g.hands[0].or(CardSet::single(card("2H")))
    );
}

#[test]
fn h1_a_joker_turned_up_makes_spades_trump_or_the_option() {
    let g = joker_deal(&[]);
    assert_eq!(g.observe(seat(1)).trump, Trump::Suit(Suit::Spades));
    let g = joker_deal(&["joker-trump=D"]);
    assert_eq!(g.observe(seat(1)).trump, Trump::Suit(Suit::Diamonds));
    // At NT the jokers are a trump suit of their own (H2).
    let g = joker_deal(&["joker-trump=NT"]);
    let o = g.observe(seat(1));
    assert_eq!(o.trump, Trump::Jokers);
    assert_eq!(o.note("trump"), Some("NT"));
    assert_eq!(g.rules[1].suit_of(Card::BIG_JOKER), suit_id::JOKERS);
}

#[test]
fn h2_joker_ranking_in_trumps_and_at_no_trump() {
    let winner = trick_winner;
    let spades = trick_rules(Strain::Suit(Suit::Spades), false);
    assert_eq!(winner(&spades, "AS LJ"), 1);
    assert_eq!(winner(&spades, "LJ BJ"), 1);
    assert_eq!(winner(&spades, "BJ LJ"), 0);
    assert_eq!(winner(&spades, "AH 2S"), 1);
    // A joker is a spade: led against a heart, it wins as a trump.
    assert_eq!(winner(&spades, "LJ AH"), 0);
    let nt = trick_rules(Strain::NoTrump, false);
    assert_eq!(winner(&nt, "AS LJ"), 1);
    assert_eq!(winner(&nt, "LJ BJ"), 1);
    assert_eq!(winner(&nt, "AS KS"), 0);
    assert_eq!(winner(&nt, "AS 2H"), 0);
}

#[test]
fn h2_h4_jokers_follow_and_beat_trumps_in_phase_2() {
    let mut g = hearts_deal(&["hands=1"]);
    play_hearts_hand(&mut g);
    // The same hand, step by step.
    let mut g = hearts_deal(&["hands=1"]);
    spades_against_clubs(&mut g);
    // Trick 14: 2H (trump) beats 2D; seat 1 takes AD, seat 0 takes BJ.
    act(&mut g, 1, "2H");
    act(&mut g, 0, "2D");
    assert_eq!(g.hands[1], cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH AD"));
    assert_eq!(g.hands[0], cards("3D 4D 5D 6D 7D 8D 9D TD JD QD KD LJ BJ"));
    // H4: a heart led; seat 0 has no printed heart, but the jokers are hearts.
    act(&mut g, 1, "3H");
    assert_eq!(legal(&g, 0), cards("LJ BJ"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("3D"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    act(&mut g, 0, "LJ");
    assert_eq!(
        g.core.tricks.done().last().unwrap().1,
        Player::Seat(seat(0)),
        "LJ > 3H"
    );
    // A joker led asks for hearts; BJ beats the ace of trumps.
    act(&mut g, 0, "BJ");
    assert_eq!(legal(&g, 1), cards("4H 5H 6H 7H 8H 9H TH JH QH KH AH"));
    assert_eq!(
        g.check(seat(1), Action::Play(card("AD"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    act(&mut g, 1, "AH");
    assert_eq!(
        g.core.tricks.done().last().unwrap().1,
        Player::Seat(seat(0)),
        "BJ > AH"
    );
    // Plain suits follow as usual.
    act(&mut g, 0, "3D");
    assert_eq!(legal(&g, 1), cards("AD"));
    act(&mut g, 1, "AD");
    play_first_legal_to_end_of_hand(&mut g);
    // Seat 1: 14 in phase 1, 11 in phase 2; seat 0: the two joker tricks.
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [2, 25]);
    assert_eq!(*r.points, [0, 12]);
    assert_eq!(*r.bids, [None, None]);
    assert_eq!(r.summary, "trump H; tricks 2-25 (phase 2 2-11); +12 to 1");
}

#[test]
fn h2_h4_no_trump_jokers_are_a_suit_of_their_own() {
    let mut g = joker_deal(&["joker-trump=NT"]);
    spades_against_clubs(&mut g);
    act(&mut g, 1, "2H");
    act(&mut g, 0, "2D");
    assert_eq!(
        g.core.tricks.done().last().unwrap().1,
        Player::Seat(seat(1))
    );
    assert!(g.hands[1].contains(Card::LITTLE_JOKER));
    assert!(g.hands[0].contains(Card::BIG_JOKER));
    // LJ led: seat 0 must follow with the other joker, which beats it.
    act(&mut g, 1, "LJ");
    assert_eq!(legal(&g, 0), cards("BJ"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("3D"))),
        Err(IllegalReason::MustFollowSpecial("jokers"))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(
        g.core.tricks.done().last().unwrap().1,
        Player::Seat(seat(0))
    );
}

#[test]
fn h1_h4_a_turned_joker_is_a_spade_when_spades_are_trump() {
    let mut g = joker_deal(&[]);
    spades_against_clubs(&mut g);
    act(&mut g, 1, "2H");
    act(&mut g, 0, "2D");
    act(&mut g, 1, "LJ");
    assert_eq!(
        g.check(seat(0), Action::Play(card("3D"))),
        Err(IllegalReason::MustFollow(Suit::Spades))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(
        g.core.tricks.done().last().unwrap().1,
        Player::Seat(seat(0)),
        "BJ > LJ"
    );
}

#[test]
fn h6_equal_jokers_the_one_led_wins() {
    for options in [&["jokers=equal"][..], &["jokers=equal", "joker-trump=NT"]] {
        let mut g = joker_deal(options);
        spades_against_clubs(&mut g);
        act(&mut g, 1, "2H");
        act(&mut g, 0, "2D");
        act(&mut g, 1, "LJ");
        assert_eq!(legal(&g, 0), cards("BJ"), "jokers still follow jokers");
        act(&mut g, 0, "BJ");
        assert_eq!(
            g.core.tricks.done().last().unwrap().1,
            Player::Seat(seat(1)),
            "{options:?}"
        );
    }
    // A joker still beats any other card, the ace of trumps included.
    let rules = trick_rules(Strain::Suit(Suit::Hearts), true);
    let mut t = Trick::new();
    t.push(Player::Seat(seat(0)), card("AH"));
    t.push(Player::Seat(seat(1)), Card::LITTLE_JOKER);
    assert_eq!(rules.winning_index(&t), 1);
    let mut t = Trick::new();
    t.push(Player::Seat(seat(0)), Card::BIG_JOKER);
    t.push(Player::Seat(seat(1)), Card::LITTLE_JOKER);
    assert_eq!(rules.winning_index(&t), 0);
}

#[test]
fn h3_the_non_dealer_leads_and_need_not_follow_in_phase_1() {
    let mut g = game(&[]);
    g.deal(&decks::WITH_TWO_JOKERS.to_vec()).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(
        g.validate(seat(0), Action::Play(card("3C"))),
        Err(IllegalReason::NotYourTurn {
            to_act: SeatSet::single(seat(1))
        })
    );
    act(&mut g, 1, "2C");
    // Seat 0 holds clubs but may play anything.
    assert_eq!(legal(&g, 0), g.hands[0]);
    assert!(g.check(seat(0), Action::Play(card("2D"))).is_ok());
    act(&mut g, 0, "2D");
    assert_eq!(
        g.core.tricks.done()[0].1,
        Player::Seat(seat(1)),
        "2D neither follows nor trumps"
    );
}

#[test]
fn h3_winner_takes_the_face_up_card_and_the_losers_draw_is_hidden() {
    let mut g = hearts_deal(&[]);
    act(&mut g, 1, "2S");
    act(&mut g, 0, "2C");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)), "the winner leads");
    assert!(g.hands[1].contains(card("2H")));
    assert!(g.hands[0].contains(Card::LITTLE_JOKER));
    let winner = g.observe(seat(1));
    let loser = g.observe(seat(0));
    // Everyone sees which card the winner took; it stays known until played.
    assert_eq!(loser.players[1].known, cards("2H"));
    assert_eq!(winner.players[0].known, CardSet::EMPTY);
    let take = |s: usize, c: Option<&str>| Event::Take {
        seat: seat(s),
        card: c.map(card),
        from: Source::Stock,
    };
    let tail = [
        Event::TrickWon {
            index: 0,
            winner: Player::Seat(seat(1)),
        },
        take(1, Some("2H")),
        take(0, None),
        Event::TurnUp { card: card("3H") },
    ];
    assert!(winner.history.ends_with(&tail));
    let mut seen_by_loser = tail;
    seen_by_loser[2] = take(0, Some("LJ"));
    assert!(loser.history.ends_with(&seen_by_loser));
    // The winner sees nothing of the loser's card.
    assert!(!format!("{winner:?}").contains("LJ"));
    assert!(!g.seen_by(seat(1)).contains(Card::LITTLE_JOKER));
    assert!(g.seen_by(seat(0)).contains(Card::LITTLE_JOKER));
    // The new top card is face up; the turn-up is no longer on the table.
    assert_eq!(
        winner.table,
        [TableCard {
            label: "stock-top".into(),
            owner: None,
            card: card("3H")
        }]
    );
    assert_eq!(winner.piles, [("stock".to_string(), 25)]);
    assert!(g.seen_by(seat(1)).contains(card("3H")));
    // Once played, a card taken face up is no longer "known in hand".
    act(&mut g, 1, "2H");
    assert_eq!(g.observe(seat(0)).players[1].known, CardSet::EMPTY);
}

#[test]
fn h3_the_last_phase_1_trick_turns_nothing() {
    let mut g = hearts_deal(&[]);
    spades_against_clubs(&mut g);
    assert_eq!(g.observe(seat(0)).table[0].card, card("AD"));
    act(&mut g, 1, "2H");
    act(&mut g, 0, "2D");
    let o = g.observe(seat(1));
    assert!(matches!(
        o.history.last(),
        Some(Event::Take {
            card: None,
            from: Source::Stock,
            ..
        })
    ));
    assert_eq!(
        o.history
            .iter()
            .filter(|e| matches!(e, Event::TurnUp { .. }))
            .count(),
        14
    );
    assert!(o.table.is_empty());
    assert_eq!(o.piles, [("stock".to_string(), 0)]);
    assert_eq!(o.note("phase"), Some("2"));
    assert_eq!(o.note("phase1-tricks"), Some("0 14"));
    assert_eq!(
        o.players[1].known,
        cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH AD")
    );
    assert_eq!(o.players[0].known, CardSet::EMPTY);
    assert_eq!(g.hands.map(CardSet::len), [13, 13]);
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "the last winner leads phase 2"
    );
}

#[test]
fn h5_a_sweep_scores_fourteen_and_wins_at_once() {
    let mut g = game(&[]);
    g.deal(&sweep_order(0)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    assert_eq!(g.status(), Status::Over);
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 27]);
    assert_eq!(r.summary, "trump S; tricks 0-27 (phase 2 0-13); +14 to 1");
    let m = g.result().unwrap();
    assert_eq!(m.totals, [0, 14]);
    assert_eq!(m.winners(), [seat(1)]);
    assert_eq!(m.hands, 1);
}

#[test]
fn h5_the_deal_alternates() {
    let mut g = game(&["scoring=per-trick"]);
    g.deal(&sweep_order(0)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    assert_eq!(g.status(), Status::Deal, "27 < 100");
    assert_eq!(g.dealer(), seat(1));
    g.deal(&sweep_order(1)).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    play_first_legal_to_end_of_hand(&mut g);
    assert_eq!(g.core.totals(), [27, 27]);
    assert_eq!(g.dealer(), seat(0));
}

#[test]
fn h5_both_reach_the_target_equal_totals_play_another_deal() {
    // Per-trick scoring: the hearts hand gives 2 and 25.
    let mut g = game(&["scoring=per-trick", "target=30"]);
    g.core.set_totals(&[28, 5]);
    g.deal(&order_for([CLUBS, SPADES], HEARTS_STOCK, 0))
        .unwrap();
    play_hearts_hand(&mut g);
    assert_eq!(g.core.totals(), [30, 30]);
    assert_eq!(g.status(), Status::Deal, "both at 30: another deal");
    g.deal(&sweep_order(1)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    let m = g.result().unwrap();
    assert_eq!(m.totals, [57, 30]);
    assert_eq!(m.ranks, [1, 2]);
}

#[test]
fn h5_both_reach_the_target_the_higher_total_wins() {
    let mut g = game(&["scoring=per-trick", "target=30"]);
    g.core.set_totals(&[29, 5]);
    g.deal(&order_for([CLUBS, SPADES], HEARTS_STOCK, 0))
        .unwrap();
    play_hearts_hand(&mut g);
    // 31 and 30: seat 0 wins although seat 1 scored more on the deal.
    let m = g.result().unwrap();
    assert_eq!(m.totals, [31, 30]);
    assert_eq!(m.winners(), [seat(0)]);
}

#[test]
fn hands_fixes_the_number_of_deals_and_ties_share() {
    let mut g = game(&["hands=2"]);
    g.deal(&sweep_order(0)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    assert_eq!(
        g.status(),
        Status::Deal,
        "the target is ignored with `hands`"
    );
    g.deal(&sweep_order(1)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    let m = g.result().unwrap();
    assert_eq!(m.totals, [14, 14]);
    assert_eq!(m.ranks, [1, 1]);
    assert_eq!(m.hands, 2);
}

#[test]
fn max_hands_ends_an_undecided_match() {
    let mut g = game(&["scoring=per-trick", "max-hands=1"]);
    g.deal(&sweep_order(0)).unwrap();
    play_first_legal_to_end_of_hand(&mut g);
    assert_eq!(g.result().unwrap().winners(), [seat(1)]);
}

#[test]
fn h7_phase1_follow_is_german_whist() {
    let mut g = game(&["phase1-follow=true"]);
    g.deal(&decks::WITH_TWO_JOKERS.to_vec()).unwrap();
    act(&mut g, 1, "2C");
    assert_eq!(legal(&g, 0), cards("3C 5C 7C 9C JC KC"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("2D"))),
        Err(IllegalReason::MustFollow(Suit::Clubs))
    );
}

#[test]
fn h7_each_scoring_mode_on_the_hearts_deal() {
    // Phase 1 0-14, phase 2 2-11: 2 and 25 tricks. (Parlett's phase 1 at
    // no trump changes no trick here: no trump is played to a plain lead.)
    for (scoring, points) in [
        ("standard", [0, 25 - 13]),
        ("phase2-only", [0, 11 - 6]),
        ("per-trick", [2, 25]),
        ("parlett", [2 * 2, 14 + 2 * 11]),
    ] {
        let opt = format!("scoring={scoring}");
        let mut g = hearts_deal(&[opt.as_str()]);
        play_hearts_hand(&mut g);
        assert_eq!(*g.hand_results()[0].points, points, "{scoring}");
        assert_eq!(g.core.totals(), points);
        assert!(!g.is_over(), "{scoring}: below the default target");
    }
}

#[test]
fn h7_a_sweep_under_each_scoring_and_its_default_target() {
    for (scoring, points, target, over) in [
        ("standard", [0, 14], 14, true),
        ("phase2-only", [0, 7], 7, true),
        ("per-trick", [0, 27], 100, false),
        ("parlett", [0, 14 + 26], 100, false),
    ] {
        let opt = format!("scoring={scoring}");
        let mut g = game(&[opt.as_str()]);
        assert_eq!(g.config().target, target);
        g.deal(&sweep_order(0)).unwrap();
        play_first_legal_to_end_of_hand(&mut g);
        assert_eq!(g.core.totals(), points, "{scoring}");
        assert_eq!(g.is_over(), over, "{scoring}");
    }
}

/// Dealer 0: seat 0 holds 2H and clubs, seat 1 spades; 3H is turned up, LJ
/// lies under it.
fn no_trump_phase_deal(options: &[&str]) -> Honeymoon {
    let stock = "3H LJ AC 4H 5H 6H 7H 8H 9H TH JH QH KH AH \
                 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD BJ";
    let seat0 = "2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC";
    let mut g = game(options);
    g.deal(&order_for([seat0, SPADES], stock, 0)).unwrap();
    g
}

#[test]
fn h7_phase1_trumps_false_and_parletts_implied_default() {
    // With trumps, 2H beats AS.
    let mut g = no_trump_phase_deal(&[]);
    act(&mut g, 1, "AS");
    act(&mut g, 0, "2H");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(0)));
    // At no trump in phase 1 it does not; the jokers are the only trumps.
    for options in [&["phase1-trumps=false"][..], &["scoring=parlett"]] {
        let mut g = no_trump_phase_deal(options);
        let o = g.observe(seat(0));
        assert_eq!(o.trump, Trump::Jokers);
        assert_eq!(o.note("trump"), Some("H"));
        act(&mut g, 1, "AS");
        act(&mut g, 0, "2H");
        assert_eq!(
            g.core.tricks.done()[0].1,
            Player::Seat(seat(1)),
            "{options:?}"
        );
        assert!(g.hands[0].contains(Card::LITTLE_JOKER));
        act(&mut g, 1, "KS");
        act(&mut g, 0, "LJ");
        assert_eq!(
            g.core.tricks.done()[1].1,
            Player::Seat(seat(0)),
            "a joker beats everything"
        );
    }
    assert!(!game(&["scoring=parlett"]).config().phase1_trumps);
    assert!(
        game(&["scoring=parlett", "phase1-trumps=true"])
            .config()
            .phase1_trumps
    );
    assert!(game(&["scoring=per-trick"]).config().phase1_trumps);
}

#[test]
fn h7_phase_2_keeps_the_hands_trump_after_a_no_trump_phase_1() {
    let mut g = hearts_deal(&["phase1-trumps=false"]);
    spades_against_clubs(&mut g);
    act(&mut g, 1, "2H");
    act(&mut g, 0, "2D");
    assert_eq!(g.observe(seat(0)).trump, Trump::Suit(Suit::Hearts));
    act(&mut g, 1, "3H");
    assert_eq!(legal(&g, 0), cards("LJ BJ"), "jokers are hearts again");
    let mut g = hearts_deal(&["phase1-trumps=false"]);
    play_hearts_hand(&mut g);
    assert_eq!(
        g.hand_results()[0].summary,
        "trump H (phase 1 NT); tricks 2-25 (phase 2 2-11); +12 to 1"
    );
}

#[test]
fn options_resolve_and_round_trip() {
    let g = game(&[]);
    assert_eq!(
        g.options().to_string(),
        "hands=unset joker-trump=S jokers=distinct max-hands=100 phase1-follow=false \
         phase1-trumps=true scoring=standard target=14"
    );
    options_round_trip(
        Honeymoon::new,
        Honeymoon::config,
        &[
            &["scoring=parlett"],
            &[
                "scoring=phase2-only",
                "joker-trump=NT",
                "jokers=equal",
                "hands=3",
            ],
            &["target=50", "phase1-follow=true", "phase1-trumps=false"],
        ],
        &[
            "target=0",
            "target=unset",
            "scoring=x",
            "jokers=same",
            "joker-trump=X",
            "phase1-trumps=yes",
            "colour=red",
        ],
    );
}

#[test]
fn illegal_actions_have_precise_reasons() {
    let mut g = game(&[]);
    assert_eq!(
        g.validate(seat(1), Action::Play(card("2C"))),
        Err(IllegalReason::AwaitingDeal)
    );
    g.deal(&decks::WITH_TWO_JOKERS.to_vec()).unwrap();
    assert_eq!(
        g.check(seat(1), Action::Play(card("AS"))),
        Err(IllegalReason::NotInHand(card("AS")))
    );
    assert_eq!(
        g.check(seat(1), Action::Pass),
        Err(IllegalReason::WrongPhase)
    );
    assert!(g.parse_action("pass").is_err());
    assert!(matches!(
        g.resolve(seat(1), "bid 7D"),
        Err(crate::error::ActionError::Parse(_))
    ));
}

const OPTION_SETS: [&[&str]; 5] = [
    &[],
    &["phase1-follow=true", "jokers=equal"],
    &["scoring=parlett", "joker-trump=NT"],
    &[
        "scoring=phase2-only",
        "phase1-trumps=false",
        "joker-trump=H",
    ],
    &["scoring=per-trick", "hands=3"],
];

#[test]
fn random_matches_end_and_totals_add_up() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        let mut g = game(options);
        play_random_match(&mut g, n as u64);
        // Every hand logs the same 127 events.
        assert_eq!(g.core.log.len(), 127);
        let results = g.hand_results();
        for r in results {
            assert_eq!(r.tricks.iter().map(|&t| t as usize).sum::<usize>(), TRICKS);
        }
        let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
        assert_eq!(g.result().unwrap().totals, [sum(0), sum(1)]);
    }
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Honeymoon.new_game(&Options::new()).unwrap();
    assert_eq!("honeymoon".parse::<Variant>().unwrap(), Variant::Honeymoon);
    assert_eq!(g.seats(), 2);
    assert_eq!(g.deck().len(), 54);
    let seed = Seed::from_u64(3);
    crate::dealing::deal_if_needed(&mut g, seed).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Honeymoon);
}
