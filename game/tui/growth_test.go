package tui

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// withXP returns g with xp experience toward level 2, made the way a save
// would carry it.
func withXP(t *testing.T, g *game.Game, xp int) *game.Game {
	t.Helper()
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(blob[10:], &snap); err != nil {
		t.Fatal(err)
	}
	snap["State"].(map[string]any)["PlayerXP"] = xp
	body, _ := json.Marshal(snap)
	out := append(append([]byte(nil), blob[:10]...), body...)
	binary.BigEndian.PutUint32(out[6:], crc32.ChecksumIEEE(body))
	g2, err := game.Decode(out, content.Default())
	if err != nil {
		t.Fatal(err)
	}
	return g2
}

// huntKey returns the key of one step toward the closest living monster
// (attacking it when next to it), or "." when none is left.
func huntKey(g *game.Game) string {
	me := g.Player().Pos
	best, goal := 0, world.Pos{}
	for _, a := range g.Actors()[1:] {
		if d := a.Pos.Chebyshev(me); a.Alive() && (best == 0 || d < best) {
			best, goal = d, a.Pos
		}
	}
	if best == 0 {
		return "."
	}
	return stepToward(g, goal)
}

// levelUpAfterAKill plays m's game, one XP short of level 2, until a kill
// opens the level-up screen.
func levelUpAfterAKill(t *testing.T, m *Model) {
	t.Helper()
	adopt(t, m, withXP(t, m.game, game.XPToNextLevel(1)-1))
	m.scr = newPlay()
	for i := 0; i < 2000; i++ {
		if _, ok := m.scr.(*levelUpScreen); ok {
			return
		}
		if m.game.Over() {
			t.Fatal("died hunting")
		}
		press(m, huntKey(m.game))
	}
	t.Fatalf("no level-up screen after 2000 steps of hunting:\n%s", plain(m))
}

func TestAKillThatReachesALevelOpensAScreenOnlyAChoiceLeaves(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	levelUpAfterAKill(t, m)
	s := plain(m)
	for _, want := range []string{"Level Up", "You reach level 2!", "(a) Constitution (+20 HP, from 30)",
		"(b) Strength (+1 attack, from 5)", "(c) Agility (+1 defense, from 2)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the level-up screen lacks %q:\n%s", want, s)
		}
	}
	turn := m.game.Turn()
	for _, k := range []string{"esc", "j", ".", "?", "i", "S", "d"} {
		press(m, k)
		if _, ok := m.scr.(*levelUpScreen); !ok || m.game.Turn() != turn {
			t.Fatalf("%q left the level-up screen or took a turn:\n%s", k, plain(m))
		}
	}
	if !strings.Contains(plain(m), "Invalid entry. Choose a, b or c, then Enter.") {
		t.Errorf("a wrong key says nothing:\n%s", plain(m))
	}
	// A letter only marks the choice: vi keys typed ahead (b is down-left)
	// never spend a level the player has not seen (a tester typed ahead).
	for range 3 {
		press(m, "b")
	}
	if _, ok := m.scr.(*levelUpScreen); !ok || m.game.Growth().Level != 1 {
		t.Fatalf("b typed ahead spent the level-up:\n%s", plain(m))
	}
	if !strings.Contains(plain(m), "> (b) Strength") {
		t.Errorf("b does not mark Strength:\n%s", plain(m))
	}
	press(m, "enter")
	if _, ok := m.scr.(*playScreen); !ok {
		t.Fatalf("b then Enter did not go back to the map:\n%s", plain(m))
	}
	if gr := m.game.Growth(); gr.Level != 2 || m.game.Player().Power != 6 || !strings.Contains(plain(m), "You feel stronger!") {
		t.Errorf("after b: %+v, power %d:\n%s", gr, m.game.Player().Power, plain(m))
	}
	if s := plain(m); !strings.Contains(s, "Lv: 2") || !strings.Contains(s, "Atk: 6") {
		t.Errorf("the status line does not show level 2 and attack 6:\n%s", s)
	}
}

func TestALevelUpWaitingForItsChoiceIsAskedAgainAfterLeaving(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	adopt(t, m, withXP(t, m.game, game.XPToNextLevel(1)))
	m.scr = m.afterTurn(newPlay())
	if _, ok := m.scr.(*levelUpScreen); !ok {
		t.Fatalf("a waiting level-up shows the map:\n%s", plain(m))
	}
	press(m, "ctrl+c")
	if m.Exit() != ExitSaved {
		t.Fatalf("Ctrl+C on the level-up screen: exit %v", m.Exit())
	}
	back := newModel(t, st, 7)
	press(back, "enter") // Continue
	if _, ok := back.scr.(*levelUpScreen); !ok {
		t.Fatalf("the resumed game does not ask for the choice:\n%s", plain(back))
	}
	press(back, "a")
	press(back, "enter")
	if p := back.game.Player(); p.MaxHP != 50 || p.HP != 50 || back.game.Growth().Level != 2 {
		t.Errorf("after a: %d/%d HP, %+v", p.HP, p.MaxHP, back.game.Growth())
	}
}

func TestTheInventoryAndStatusLineShowWhatIsWorn(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	adopt(t, m, withPack(t, m.game, []game.ItemKind{game.HealthPotion, game.Dagger, game.ChainMail}))
	m.scr = newPlay()
	for _, k := range []string{"i", "b", "i", "c"} {
		press(m, k)
	}
	s := plain(m)
	if !strings.Contains(s, "You equip the chain mail.") || !strings.Contains(s, "Atk: 7  Def: 5") {
		t.Errorf("after wearing a dagger and chain mail:\n%s", s)
	}
	press(m, "i")
	s = plain(m)
	if !strings.Contains(s, "(b) dagger (in hand)") || !strings.Contains(s, "(c) chain mail (worn)") || strings.Contains(s, "health potion (") {
		t.Errorf("the inventory does not say what is worn:\n%s", s)
	}
	press(m, "esc")
	press(m, "d")
	press(m, "b")
	if s := plain(m); !strings.Contains(s, "You remove the dagger.") || !strings.Contains(s, "Atk: 5  Def: 5") {
		t.Errorf("after dropping the worn dagger:\n%s", s)
	}
}

func TestTheLevelUpScreenFitsTheSmallestTerminal(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	adopt(t, m, withXP(t, m.game, game.XPToNextLevel(1)))
	m.scr = m.afterTurn(newPlay())
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	s := plain(m)
	for _, want := range []string{"Level Up", "(a) Constitution (+20 HP, from 30)", "(c) Agility (+1 defense, from 2)", "Enter takes it"} {
		if !strings.Contains(s, want) {
			t.Errorf("at %dx%d the level-up screen lacks %q:\n%s", MinWidth, MinHeight, want, s)
		}
	}
}

// waitingLevelUp gives m's game the XP for level 2 and shows what the
// title's Continue shows then: the level-up screen.
func waitingLevelUp(t *testing.T, m *Model) {
	adopt(t, m, withXP(t, m.game, game.XPToNextLevel(1)))
	m.scr = m.afterTurn(newPlay())
}

// TestTheLevelUpScreenCountsFromThePlayersOwnStats: the tester, strong from
// a warrior's potion and armed, read "Strength (+1 attack, from 12)" and
// took the 12 for what a level had made them. The
// choice raises what is the player's own, so the screen counts from that,
// and says that gear, potions and hunger count on top.
func TestTheLevelUpScreenCountsFromThePlayersOwnStats(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	g := m.game
	for _, k := range []game.ItemKind{game.WarriorPotion, game.Dagger} {
		if _, err := g.Apply(game.CheatCommand(game.CheatCreate, k)); err != nil {
			t.Fatal(err)
		}
		for i, it := range g.Inventory() {
			if it.Kind == k {
				if _, err := g.Apply(game.Use(i, world.Pos{})); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if g.PlayerPower() <= 5 || g.PlayerDefense() <= 2 {
		t.Fatalf("power %d, defense %d: the potion and the dagger did not count", g.PlayerPower(), g.PlayerDefense())
	}
	m.scr = &levelUpScreen{back: newPlay(), sel: -1}
	s := plain(m)
	for _, want := range []string{"(b) Strength (+1 attack, from 5)", "(c) Agility (+1 defense, from 2)", "Gear, potions and hunger count on top."} {
		if !strings.Contains(s, want) {
			t.Errorf("the level-up screen lacks %q:\n%s", want, s)
		}
	}
}
