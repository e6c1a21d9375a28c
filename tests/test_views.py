"""What each seat may see (issue 21, part 2; hsm_tui/views.py): a player's projection
holds no fact that is the GM's alone, whatever the fight has done.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    EndTurn,
    Reveal,
    SetBand,
    SetCountdown,
    SetCover,
    SetNote,
    SetPools,
    StartCombat,
)
from hsm_tui.campaign.encounter import Countdown, Encounter
from hsm_tui.campaign.party import AddHero, AddToRoster, Campaign, SetScene
from hsm_tui.persistence import store
from hsm_tui.rules import Derived, RulesError
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.rules.secret import END, SPLIT, START
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import GM_SEAT, Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.table.state import LogEntry, OpenEntry, UndoneEntry
from hsm_tui.table.views import view_for
from hsm_tui.table.visibility import GM_ONLY, OPEN, TITLED, keeps_secrets
from hsm_tui.ui.player.table import timed_marks
from tests.campaign import pack, play
from tests.campaign.test_combat_engine import R1, duel

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
WATCHER = Seat(Role.WATCHER, "wes")
K = "kestrel-vance-1"
NOTE = "The zealots' leader is the governor's own sister"


def ambush(seed: int = 2) -> Session:
    """Kestrel and Mireille at the dig; two raiders in the open, three hounds hidden."""
    s = Session(seed=seed, content=pack())
    for command in (
        AddHero("kestrel-vance"),
        AddHero("mireille-ashdown"),
        SetScene(NOTE),
        AddToRoster("minion", "corporate-trooper"),
        AddZone("dig"),
        AddZone("ridge"),
        SetBand("dig", "ridge", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("hero", "mireille-ashdown", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge", count=2),
        AddCombatants("minion", "xeno-hound", "hounds", "ridge", count=3, hidden=True),
        StartCombat(),
    ):
        s.apply(command)
    return s


MARKS = {START, SPLIT, END}
SECRET_NUMBER = re.compile(r"(Defense|Health|Stamina|Morale|Strength|Initiative|TN) [−-]?\d")
"""A Minion's number as a log line would give it away."""


def text(view: object) -> str:
    """Every string a view holds, as one text to search for secrets."""
    return repr(view)


def test_a_player_sees_the_party_the_board_and_the_revealed_foes_only() -> None:
    s = ambush()
    view = s.view(KARA)
    names = {c.name for c in view.combatants}
    assert {"Kestrel Vance", "Mireille Ashdown", "Pirate raider 1", "Pirate raider 2"} == names
    assert not any("hound" in n.lower() for n in (*names, *view.order))
    assert view.zones == ("dig", "ridge") and view.bands == (("dig", "ridge", "short"),)
    assert view.hero is not None and view.hero.id == K  # her own sheet, in full
    assert view.member is not None and view.member.entry == "kestrel-vance"
    assert view.scene == "" and NOTE not in text(view) and "corporate" not in text(view)
    assert "xeno" not in text(view).lower() and "hound" not in text(view).lower()


def test_the_gm_sees_everything_and_a_revealed_group_joins_the_players_view() -> None:
    s = ambush()
    gm = s.view(GM_SEAT)
    assert sum("hound" in c.name.lower() for c in gm.combatants) == 3
    assert gm.scene == NOTE and any(e.visibility == GM_ONLY for e in gm.log)
    s.apply(Reveal("xeno-hound-1"))
    seen = s.view(KARA)
    assert sum("hound" in c.name.lower() for c in seen.combatants) == 3
    assert (
        seen.log[-1].title == "Revealed: Feral xeno-hound 1, Feral xeno-hound 2, Feral xeno-hound 3"
    )
    assert not any("hound" in e.title.lower() for e in seen.log[:-1])  # earlier stays the GM's


def test_a_player_reads_every_public_entry_with_the_gms_numbers_hidden() -> None:
    """Issue 21 §2: a GM-only part (a Minion's Defense TN and Health) is redacted from a
    public entry instead of hiding the whole entry; the GM reads it whole.
    """
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)  # a hit: the raider may dive
    play(s, AnswerDive("none"), 9, 2)  # through Defense: damage
    seen = {e.title: e.lines for e in s.view(KARA).log}
    gm = {e.title: e.gm_lines for e in s.log}
    attack = "Kestrel Vance attacks Pirate raider 1"
    assert seen[attack] == gm[attack] and "TN Rifles 8 = 8" in seen[attack]  # her own TN
    defends = "Pirate raider 1 defends"
    assert gm[defends] == (
        "Dodge 5 → Defense 5: d10 9 → 1 of 1 through, 0 avoided",
        "hit 1: damage 1d6! [2] = 2 vs Health 4 → 0 wound steps → no wound",
    )
    assert seen[defends] == (
        "Defense hidden: d10 9 → 1 of 1 through, 0 avoided",
        "hit 1: damage 1d6! [2] = 2 vs Health hidden → 0 wound steps → no wound",
    )
    assert {e.title: e.lines for e in s.view(WATCHER).log}[defends] == seen[defends]
    s.apply(OpenEntry(next(e.seq for e in s.log if e.title == defends)))  # F6 o: shown whole
    assert {e.title: e.lines for e in s.view(KARA).log}[defends] == gm[defends]


def test_a_minions_attack_shows_its_dice_not_its_tn_or_odds() -> None:
    """Issue 21 §2: a GM roll's TN and its odds are the GM's; the dice are the table's."""
    s = duel()
    s.rng = random.Random(5)  # type: ignore[assignment]  # duel() left a scripted one
    s.apply(EndTurn())  # the raiders' turn: the GM rolls
    s.apply(Attack(R1, K, "laser-pistol"))
    entry = next(e for e in s.view(KARA).log if e.title == "Pirate raider 1 attacks Kestrel Vance")
    gm = next(e for e in s.log if e.seq == entry.seq).gm_lines
    assert gm[1] == "TN Pistols 6 = 6", gm
    assert gm[2].startswith("odds: ≥1 hit") and re.match(r"roll d10 [\d, ]+ vs TN \d+ → ", gm[3])
    assert entry.lines[:2] == (gm[0], "TN hidden") and not any("odds" in x for x in entry.lines)
    assert re.match(r"roll d10 [\d, ]+ vs TN hidden → \d+ hits?$", entry.lines[2]), entry.lines


def test_enemies_show_a_word_for_their_wounds_and_no_traits() -> None:
    s = ambush()
    raider = next(c for c in s.view(KARA).combatants if c.name == "Pirate raider 1")
    assert raider.state == "unhurt" and not hasattr(raider, "traits")
    health = s.encounter.get("pirate-raider-1").traits[Derived.HEALTH]
    assert f"Health {health}" not in text(s.view(KARA))


def test_the_gm_opens_an_entry_to_every_seat() -> None:
    s = ambush()
    hidden = next(e for e in s.log if e.visibility == GM_ONLY)
    s.apply(OpenEntry(hidden.seq))
    assert s.log[hidden.seq - 1].visibility == OPEN
    assert any(e.seq == hidden.seq and e.lines == hidden.lines for e in s.view(KARA).log)
    try:
        s.apply(OpenEntry(hidden.seq))
    except RulesError as refused:
        assert "already open" in str(refused)
    else:
        raise AssertionError("opening twice must be refused")


# -- property: nothing in a player's projection is the GM's alone ---------------------------
ACTIONS = st.lists(st.integers(min_value=0, max_value=10_000), min_size=5, max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=50), picks=ACTIONS)
def test_no_gm_only_fact_reaches_a_player_in_any_fight(seed: int, picks: list[int]) -> None:
    """Random fights with a hidden group: a player's and a watcher's projections never
    hold a hidden combatant's name or id, the scene notes, the roster, a Minion's Health or
    Defense TN line, or a GM-only entry.
    """
    s = ambush(seed)
    SeatedSession(s, KARA)  # her questions are hers: the projection may hold one (not a secret's)
    s.apply(SetPools(K, luck=2))
    rng = random.Random(seed)
    for pick in picks:
        enc = s.encounter
        if s.pending is not None:
            options = s.pending.options
            s.apply(options[pick % len(options)].command)
            continue
        if enc.turn is None:
            break
        members = [c for c in enc.combatants if c.group == enc.turn.actor and c.standing]
        foes = [c for c in enc.combatants if members and c.side != members[0].side]
        command = EndTurn()
        if members and foes and pick % 3:
            me, foe = members[0], rng.choice(foes)
            command = Attack(me.id, foe.id, me.weapons[0].id) if me.weapons else EndTurn()
        try:
            s.apply(command)
        except RulesError:
            s.apply(EndTurn()) if s.pending is None else None
    hidden = [n for c in s.encounter.combatants if c.hidden for n in (c.name, c.id)]
    minions = tuple(c.name for c in s.encounter.combatants if not c.player)
    for seat in (KARA, WATCHER):
        seen = text(s.view(seat))
        assert not any(name in seen for name in hidden)
        assert NOTE not in seen and "corporate-trooper" not in seen
        shown = view_for(seat, s.encounter, s.party_now(), s.log).log
        assert all(e.visibility != GM_ONLY for e in shown)
        numbers = [e.seq for e in shown]  # no gap shows where a hidden entry stands
        assert numbers == list(range(1, len(shown) + 1))
        for entry in shown:  # the GM's numbers about a Minion never reach a player
            assert not any(MARKS.intersection(line) for line in entry.lines)
            about = entry.title.startswith(minions)
            for line in entry.lines:
                if about or line.lstrip("0123456789. ").startswith(minions):
                    assert not SECRET_NUMBER.search(line), (entry.title, line)


def test_a_file_from_before_seats_keeps_its_undo_and_re_marks_its_entries(tmp_path: Path) -> None:
    """Files written before entries had a visibility hold every entry as public; opening
    one replays its history and marks the GM's notes as the GM's (undo kept).
    """
    s = ambush()
    path = store.save(s, tmp_path / "old.toml")
    old = path.read_text().replace('visibility = "gm"', 'visibility = "public"')
    path.write_text(old)
    opened = Session(content=pack())
    assert store.load(opened, path).startswith("undo history of")
    assert [e.visibility for e in opened.log] == [e.visibility for e in s.log]
    assert GM_ONLY in {e.visibility for e in opened.log}


def test_an_undone_entry_stays_struck_through_in_a_players_view() -> None:
    """Undo is the GM's; a player who read a roll sees it marked undone, where it stood,
    before the entry that took its number; a redo takes the mark away."""
    s = duel()
    s.apply(SetCover(K, "heavy"))
    cover = s.log[-1]
    s.undo()
    seen = s.view(KARA).log
    assert seen[-1].seq == cover.seq and seen[-1].title == cover.title
    assert isinstance(seen[-1], UndoneEntry) and cover not in s.log
    s.redo()
    assert [e for e in s.view(KARA).log if isinstance(e, UndoneEntry)] == []
    s.undo()
    s.apply(SetCover(K, "light"))  # a new entry takes the number
    last_two = s.view(KARA).log[-2:]
    assert [(e.seq, e.title, type(e)) for e in last_two] == [
        (cover.seq, cover.title, UndoneEntry),
        (cover.seq, s.log[-1].title, LogEntry),
    ]


def test_each_seat_numbers_its_log_without_gaps() -> None:
    """A hidden entry leaves no gap in a player's numbers (#2 → #6 told there were three);
    an undone entry keeps the number of the entry that took its place."""
    s = ambush()
    s.apply(SetCover(K, "heavy"))
    gm_only = [e.seq for e in s.log if e.visibility == GM_ONLY]
    seen = s.view(KARA).log
    assert gm_only and [e.seq for e in seen] == list(range(1, len(seen) + 1))
    assert len(seen) == len(s.log) - len(gm_only)
    s.apply(Reveal("xeno-hound-1"))  # the ambush is sprung: public from here on
    s.apply(SetCover(K, "light"))
    s.undo()
    s.apply(SetCover(K, "medium"))
    *_, struck, now = s.view(KARA).log
    assert isinstance(struck, UndoneEntry) and "light" in struck.title
    assert struck.seq == now.seq == len(s.view(KARA).log) - 1  # the undone one is extra
    assert s.log[-1].seq > now.seq  # the GM's own number counts the hidden entries


def test_an_undone_gm_only_entry_stays_the_gms() -> None:
    s = ambush()
    s.apply(SetScene("the hounds circle"))
    s.undo()
    assert not any("hounds circle" in repr(e) for e in s.view(KARA).log)


def test_a_roll_the_gm_hides_before_rolling_is_the_gms_alone() -> None:
    """Issue 21: the GM marks a roll hidden (F2 h) before rolling: no player sees its
    entry, and its re-roll question is the GM's even when the roller is a player's hero."""
    from hsm_tui.rules import Rank, task_tn
    from hsm_tui.table.session import RollTask

    s = ambush()
    SeatedSession(s, KARA)
    s.apply(SetPools(K, luck=2))
    secret = RollTask(task_tn([("Senses", 1)], difficulties=[3]), Rank.HERO, "Spot", who=K)
    s.apply(replace(secret, hidden=True))
    assert s.log[-1].visibility == GM_ONLY
    assert s.log[-1].seq not in {e.seq for e in s.view(KARA).log}
    if s.pending is not None:  # a failed roll: Kestrel's Luck could pay, the GM decides
        assert s.waiting_for == "gm" and s.view(KARA).decision is None


def test_only_the_gm_rolls_in_secret() -> None:
    from hsm_tui.rules import Rank, task_tn
    from hsm_tui.rules.errors import NotPermitted
    from hsm_tui.table.session import RollTask

    s = duel()
    task = RollTask(task_tn([("Senses", 2)]), Rank.HERO, who=K, hidden=True)
    try:
        SeatedSession(s, KARA).apply(task)
    except NotPermitted as refused:
        assert "only the GM hides a roll" in str(refused)
    else:
        raise AssertionError("a player's secret roll must be refused")


def test_the_table_log_follows_an_entry_changed_in_place_and_an_undo() -> None:
    """The players' log is worked out once per change and only for new entries: an
    entry rewritten where it stands (re-rolls written into it) or an undo is seen too.
    """
    entries = tuple(LogEntry(n, "gm", f"entry {n}", (f"line {n}",)) for n in range(1, 4))

    def read(log: tuple[LogEntry, ...]) -> list[tuple[str, tuple[str, ...]]]:
        return [
            (e.title, e.lines) for e in view_for(WATCHER, Encounter(zones=()), Campaign(), log).log
        ]

    assert read(entries) == [(f"entry {n}", (f"line {n}",)) for n in range(1, 4)]
    changed = (entries[0], replace(entries[1], lines=("line 2", "re-rolled")), entries[2])
    assert read(changed)[1] == ("entry 2", ("line 2", "re-rolled"))
    assert read(changed[:1]) == [("entry 1", ("line 1",))]
    grown = (*changed[:1], replace(entries[1], visibility=GM_ONLY))
    assert read(grown) == [("entry 1", ("line 1",))]


def test_the_gm_opens_an_entry_to_one_seat_only() -> None:
    """Issue 21 §2: an entry's visibility may be one seat: the GM shows a secret to one
    player (F6 O); the other seats still see nothing of it, until it opens to all.
    """
    s = ambush()
    hidden = next(e for e in s.log if e.visibility == GM_ONLY)
    s.apply(OpenEntry(hidden.seq, to=KARA.issuer))
    assert s.log[hidden.seq - 1].visibility == f"{GM_ONLY};{KARA.issuer}"
    assert s.log[-1].title == f"Opened #{hidden.seq} to player:kara: {hidden.title}"
    assert any(e.title == hidden.title and e.lines == hidden.lines for e in s.view(KARA).log)
    assert all(e.title != hidden.title for e in s.view(WATCHER).log)
    assert all("Opened" not in e.title for e in (*s.view(KARA).log, *s.view(WATCHER).log))
    for to, why in ((KARA.issuer, "already open to player:kara"), ("gm", "keeps nothing")):
        try:
            s.apply(OpenEntry(hidden.seq, to=to))
        except RulesError as refused:
            assert why in str(refused)
        else:
            raise AssertionError(f"opening to {to} again must be refused")
    s.apply(OpenEntry(hidden.seq))
    assert any(e.title == hidden.title for e in s.view(WATCHER).log)
    s.undo()
    assert all(e.title != hidden.title for e in s.view(WATCHER).log)
    assert any(e.title == hidden.title for e in s.view(KARA).log)


def test_an_entry_from_before_the_marks_shows_its_title_alone_until_opened() -> None:
    """A campaign saved before the engine marked the GM's numbers (format 2) cannot tell
    them in its lines: its entries reach the players as they did then, by title.
    """
    old = LogEntry(1, "gm", "Pirate raider 1 defends", ("Dodge 5 → Defense 5: d10 9",), TITLED)
    assert view_for(KARA, Encounter(zones=()), Campaign(), (old,)).log[0].lines == ()
    assert keeps_secrets(old)
    opened = replace(old, visibility=f"{TITLED};{KARA.issuer}")
    assert view_for(KARA, Encounter(zones=()), Campaign(), (opened,)).log[0].lines == old.lines


def test_r_init_1_the_players_read_the_initiative_without_the_hidden_group() -> None:
    """A hidden group no longer hides the whole initiative entry, nor the next turn's
    start after its own turn: the players read them without the hidden group's line
    and without the ordinals that would tell them something came first."""
    s = ambush()
    initiative = next(e for e in s.view(KARA).log if e.title.startswith("Initiative"))
    assert [line.split(":")[0] for line in initiative.lines] == [
        "Mireille Ashdown",
        "Kestrel Vance",
        "Pirate raider ×2",
    ]
    gm_initiative = next(e for e in s.log if e.title.startswith("Initiative"))
    assert gm_initiative.gm_lines[0].startswith("1. Feral xeno-hound ×3")  # the GM's whole
    assert s.encounter.turn.actor == "xeno-hound@hounds"
    s.apply(EndTurn())  # the hidden hounds' turn ends: Mireille's starts, for all to read
    assert s.view(KARA).log[-1].title == "Round 1: Mireille Ashdown's turn"
    assert "hound" not in text(s.view(KARA)).casefold()


def test_the_players_do_not_watch_an_encounter_being_built() -> None:
    """Until the fight starts the set-up is the GM's: the players see their party, not the
    foes, the zones or the set-up steps; the start shows them (hidden ones excepted)."""
    s = Session(seed=2, content=pack())
    for command in (
        AddHero("kestrel-vance"),
        AddZone("dig"),
        AddZone("vault"),
        SetBand("dig", "vault", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "vault", count=2),
    ):
        s.apply(command)
    building = s.view(KARA)
    assert [c.name for c in building.combatants] == ["Kestrel Vance"]
    assert building.zones == () and building.bands == ()
    assert "vault" not in text(building) and "raider" not in text(building)
    assert [e.title for e in building.log] == ["Kestrel Vance joins the party"]
    s.apply(StartCombat())
    fighting = s.view(KARA)
    assert "Pirate raider 1" in [c.name for c in fighting.combatants]
    assert fighting.zones == ("dig", "vault")
    assert any("pirates in vault" in e.title for e in fighting.log)
    s.undo()  # the start taken back: private again (what she read stays, struck through)
    assert [c.name for c in s.view(KARA).combatants] == ["Kestrel Vance"]


def test_the_gms_notes_stay_the_gms_and_countdowns_show_on_the_combatants_seen() -> None:
    """A note on a combatant is the GM's alone, the player's own hero's too (and its log
    entry); a countdown shows on a combatant the players see (§7 row 11 Stunned for 2
    turns), and nothing of a hidden one's note or countdown reaches them."""
    s = ambush()
    hound = "xeno-hound-1"
    for command in (
        SetNote(K, "her brother is the traitor"),
        SetNote(hound, "the pack's alpha: flees at half"),
        SetNote(R1, "carries the vault key"),
        SetCountdown(K, "stunned", 2),
        SetCountdown(R1, "blinded", 1),
        SetCountdown(hound, "enraged", 3),
    ):
        s.apply(command)
    gm = s.view(GM_SEAT)
    assert gm.hero is None and s.encounter.get(K).note == "her brother is the traitor"
    assert sum(": note “" in e.title for e in gm.log) == 3
    for seat in (KARA, WATCHER):
        seen = s.view(seat)
        told = text(seen)
        for secret in ("traitor", "alpha", "vault key", "enraged", "hound"):
            assert secret not in told.lower(), (seat, secret)
        by_id = {c.id: c for c in seen.combatants}
        assert by_id[K].countdowns == (Countdown("stunned", 2, 2),)
        assert by_id[R1].countdowns == (Countdown("blinded", 1, 1),)
        assert "Pirate raider 1: blinded for its next 1 turn" in {e.title for e in seen.log}
    assert s.view(KARA).hero is not None and s.view(KARA).hero.note == ""
    assert timed_marks(s.view(KARA).combatants[0]) == ("stunned (2 more turns)",)
    s.take_seat(KARA)  # the GM's alone to write, as to read
    mine = (SetNote(K, "mine", issuer=KARA.issuer), SetCountdown(K, "x", 1, issuer=KARA.issuer))
    for command in mine:
        with pytest.raises(NotPermitted, match="only the GM may"):
            s.apply(command)
