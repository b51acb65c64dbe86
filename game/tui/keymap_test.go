package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// keyPress returns the press Bubble Tea names name (tea.KeyPressMsg.String),
// failing the test when no key is named so: a binding for a name no key
// produces (such as "kp8") would never work.
func keyPress(t *testing.T, name string) tea.KeyPressMsg {
	t.Helper()
	var k tea.KeyPressMsg
	mod, base := tea.KeyMod(0), name
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		mod, base = tea.ModCtrl, rest
	}
	named := false
	for _, code := range []rune{tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight, tea.KeyHome, tea.KeyEnd,
		tea.KeyPgUp, tea.KeyPgDown, tea.KeyBegin, tea.KeyEnter, tea.KeyEscape, tea.KeySpace, tea.KeyTab} {
		if (tea.Key{Code: code}).String() == base {
			k, named = tea.KeyPressMsg{Code: code, Mod: mod}, true
		}
	}
	if r := []rune(base); !named && len(r) == 1 {
		k = tea.KeyPressMsg{Code: r[0], Mod: mod}
		if mod == 0 {
			k.Text = base
		}
	}
	if k.String() != name {
		t.Fatalf("no key press is named %q (the nearest is %q)", name, k.String())
	}
	return k
}

// helpLine is how the help screen lists a binding.
func helpLine(b binding) string { return fmt.Sprintf("%-16s%s", b.label, b.help) }

func TestTheHelpScreenListsEveryBindingAndCheatsOnlyForAdmins(t *testing.T) {
	for _, admin := range []bool{false, true} {
		m := newModel(t, newFakeStore(), 7)
		m.p.Admin = func() bool { return admin }
		press(m, "enter")
		press(m, "?")
		help := plain(m)
		for _, km := range []keyMap{m.keys.play, m.keys.aim} {
			for _, b := range km {
				if listed := strings.Contains(help, helpLine(b)); listed != (admin || !b.admin) {
					t.Errorf("admin %v: %q listed=%v:\n%s", admin, helpLine(b), listed, help)
				}
			}
		}
	}
}

// openPlay returns a model playing seed 7 from its first turn, whose player
// stands with open floor all round and nothing on it, and the game's
// encoding, to start each key afresh from.
func openPlay(t *testing.T) (*Model, []byte) {
	t.Helper()
	m := newModel(t, newFakeStore(), 7)
	m.p.Admin = func() bool { return true }
	press(m, "enter")
	g := m.game
	me := g.Player().Pos
	for _, d := range world.Directions8 {
		p := me.Add(d.X, d.Y)
		if g.Tile(p) != world.Floor || len(g.Describe(p)) > 1 { // only the floor's name
			t.Fatalf("seed 7 does not start in the open (%v is %v, %v); pick another seed", p, g.Tile(p), g.Describe(p))
		}
	}
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return m, blob
}

// restart puts m back on the play screen of the game encoded in blob.
func restart(t *testing.T, m *Model, blob []byte) {
	t.Helper()
	g, err := game.Decode(blob, content.Default())
	if err != nil {
		t.Fatal(err)
	}
	adopt(t, m, g)
	m.scr, m.exit = newPlay(), ExitDisconnect
	m.chatIn = chatInput{} // " opens a line whatever the chat: closed for the next key
	m.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h})
}

func TestEveryPlayKeyDoesWhatItsHelpLineSays(t *testing.T) {
	m, blob := openPlay(t)
	for _, b := range m.keys.play {
		for _, k := range b.keys {
			restart(t, m, blob)
			before := m.game.Player().Pos
			_, cmd := m.Update(keyPress(t, k.name))
			g, note := m.game, ""
			if p, ok := m.scr.(*playScreen); ok {
				note = p.note
			}
			inventory := func(v verb) bool { s, ok := m.scr.(*inventoryScreen); return ok && s.verb == v }
			var ok bool
			switch k.act {
			case actMove:
				ok = g.Player().Pos == before.Add(k.dir.X, k.dir.Y) && g.Turn() == 1
			case actWait:
				ok = g.Player().Pos == before && g.Turn() == 1
			case actSearch: // a turn spent searching where the player stands
				ok = g.Player().Pos == before && g.Turn() == 1
			case actDescend: // no stairs seen from the start: the game's refusal, the key asked it to descend
				ok = note == "There are no stairs here."
			case actTravel:
				ok = note == "You have not seen any stairs down yet."
			case actExplore:
				p, _ := m.scr.(*playScreen)
				ok = p != nil && p.trip != nil && g.Turn() == 1 && cmd != nil
			case actAscend:
				ok = note == "There are no stairs up here."
			case actPickUp:
				ok = note == "There is nothing here to pick up."
			case actUse:
				ok = inventory(verbUse)
			case actQuaff:
				ok = inventory(verbQuaff)
			case actRead:
				ok = inventory(verbRead)
			case actDrop:
				ok = inventory(verbDrop)
			case actThrow:
				ok = inventory(verbThrow)
			case actCall:
				ok = inventory(verbCall)
			case actLook:
				s, isTarget := m.scr.(*targetScreen)
				ok = isTarget && s.mode == targetLook
			case actLog:
				_, ok = m.scr.(*logScreen)
			case actHelp:
				_, ok = m.scr.(*helpScreen)
			case actSave:
				ok = cmd != nil && m.Exit() == ExitSaved
			case actCheat:
				_, ok = m.scr.(*cheatScreen)
			case actOptions:
				_, ok = m.scr.(*settingsScreen)
			case actChat: // the line opens; a game with no chat room here says it cannot be sent (chat_test.go types in one)
				ok = m.chatIn.on && (note == "There is no chat for this game yet: a line cannot be sent." || note == "")
			case actRest: // a fresh game is at full health
				ok = note == "You are already at full health." && g.Turn() == 0
			default:
				t.Errorf("%q: no check for action %d; add one", k.name, k.act)
				continue
			}
			if !ok {
				t.Errorf("%q (%q: %s) did not do that; note %q, screen %T, turn %d, at %v from %v",
					k.name, b.label, b.help, note, m.scr, g.Turn(), g.Player().Pos, before)
			}
		}
	}
}

func TestEveryAimingKeyDoesWhatItsHelpLineSays(t *testing.T) {
	m, blob := openPlay(t)
	adopt(t, m, withPack(t, m.game, []game.ItemKind{game.HealthPotion}))
	blob, err := m.game.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range m.keys.aim {
		for _, k := range b.keys {
			restart(t, m, blob)
			press(m, "t")
			press(m, "a") // throw the potion: aiming at a single tile
			press(m, "l") // not at your own feet
			ts := m.scr.(*targetScreen)
			from := ts.cursor
			m.Update(keyPress(t, k.name))
			var ok bool
			switch k.act {
			case actAim:
				ok = m.scr == ts && ts.cursor == from.Add(k.dir.X, k.dir.Y)
			case actFire:
				ok = len(m.game.Inventory()) == 0 && m.game.Turn() == 1
			case actCancel:
				_, back := m.scr.(*playScreen)
				ok = back && len(m.game.Inventory()) == 1 && m.game.Turn() == 0
			case actGoto: // travels only when looking (TestEnterInLookModeTravelsToTheCursor); aiming a throw, it does nothing
				ok = m.scr == ts && len(m.game.Inventory()) == 1 && m.game.Turn() == 0
			default:
				t.Errorf("%q: no check for action %d; add one", k.name, k.act)
				continue
			}
			if !ok {
				t.Errorf("%q (%q: %s) did not do that: screen %T, turn %d, pack %d",
					k.name, b.label, b.help, m.scr, m.game.Turn(), len(m.game.Inventory()))
			}
		}
	}
}

func TestEveryOtherKeyIsAnUnknownCommandThatCostsNothing(t *testing.T) {
	m, blob := openPlay(t)
	m.p.Admin = func() bool { return false }
	bound := map[string]bool{}
	for _, b := range m.keys.play {
		for _, k := range b.keys {
			bound[k.name] = !b.admin
		}
	}
	for r := '!'; r <= '~'; r++ {
		name := string(r)
		if bound[name] {
			continue
		}
		restart(t, m, blob)
		m.Update(keyPress(t, name))
		p, ok := m.scr.(*playScreen)
		if !ok || !strings.HasPrefix(p.note, "Unknown command") || m.game.Turn() != 0 {
			t.Errorf("%q is not in the help but did something: screen %T, turn %d", name, m.scr, m.game.Turn())
		}
	}
}
