package tui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/grotto-game/grotto/game"
)

// update rewrites the golden screens: go test ./game/tui -update (the whole
// package: the replay tests keep golden screens too; see CONTRIBUTING.md).
var update = flag.Bool("update", false, "rewrite testdata/golden/*.txt from the screens drawn now")

// goldenModel is the one place golden screens get a model: a fixed player,
// seed (fireballSeed: 247 lost its fireball scroll to food rations) and clock, an empty store, a w x h terminal, then keys pressed
// in order (named as press names them).
func goldenModel(t *testing.T, w, h int, keys ...string) *Model {
	t.Helper()
	m := New(newPlayer(t, newFakeStore(), "SHA256:golden", "golden", fireballSeed))
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range keys {
		press(m, k)
	}
	return m
}

// checkGolden compares the screen, without colours, with
// testdata/golden/name.txt, or rewrites that file under -update.
func checkGolden(t *testing.T, name string, m *Model) {
	t.Helper()
	compareGolden(t, name, plain(m))
}

// highlights draws which cells of the map rows have a background, as
// colours alone show the area an effect would hit: X for the cursor
// (reverse video), * for a highlighted tile, . for any other cell.
func highlights(t *testing.T, m *Model) string {
	emu := cells(t, m)
	mapRows, _ := m.layout()
	var b strings.Builder
	for y := range mapRows {
		for x := range m.w {
			c := emu.CellAt(x, y)
			switch {
			case c != nil && c.Style.Attrs&uv.AttrReverse != 0:
				b.WriteByte('X')
			case c != nil && c.Style.Bg != nil:
				b.WriteByte('*')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// compareGolden compares got with testdata/golden/name.txt, or rewrites
// that file under -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with: go test ./game/tui -run Golden -update)", err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("%s differs from the golden screen first at line %d:\ngot  %q\nwant %q\nwhole screen:\n%s", path, i+1, gl, wl, got)
			return
		}
	}
}

func TestGoldenScreens(t *testing.T) {
	aimFireball := func(t *testing.T, m *Model) {
		walkTo(t, m, game.FireballScroll)
		for _, k := range []string{"g", "i", "a", "l", "L"} { // the area, 6 tiles east
			press(m, k)
		}
	}
	cases := []struct {
		name string
		w, h int
		keys []string
		then func(t *testing.T, m *Model)
	}{
		{name: "title", w: 80, h: 24},
		{name: "play-80x24", w: 80, h: 24, keys: []string{"enter", "l", "l", "j", "."}},
		{name: "play-40x12", w: 40, h: 12, keys: []string{"enter", "l", "l", "j", "."}},
		{name: "help", w: 80, h: 24, keys: []string{"enter", "?"}},
		{name: "settings", w: 80, h: 24, keys: []string{"enter", "O"}},
		{name: "play-caverns-ascii-80x24", w: 80, h: 24, keys: []string{"enter", "O", "l", "esc"}, then: func(t *testing.T, m *Model) {
			adopt(t, m, caverns(t, 247))
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24}) // settles the camera on the player
		}},
		{name: "help-end-40x12", w: 40, h: 12, keys: []string{"enter", "?", "end"}},
		{name: "look-40x12", w: 40, h: 12, keys: []string{"enter", "/", "h"}},
		{name: "inventory", w: 80, h: 24, keys: []string{"enter"}, then: func(t *testing.T, m *Model) {
			walkTo(t, m, game.FireballScroll)
			press(m, "g")
			press(m, "i")
		}},
		{name: "targeting-fireball", w: 80, h: 24, keys: []string{"enter"}, then: aimFireball},
		{name: "level-up", w: 80, h: 24, keys: []string{"enter"}, then: waitingLevelUp},
		{name: "level-up-40x12", w: 40, h: 12, keys: []string{"enter"}, then: waitingLevelUp},
		{name: "explore-stopped", w: 80, h: 24, keys: []string{"enter"}, then: func(t *testing.T, m *Model) {
			for range 50 { // explore until a monster comes into view
				if _, seen := monsterInView(m.game); seen {
					return
				}
				press(m, "x")
				drive(t, m)
			}
			t.Fatal("no monster came into view")
		}},
		{name: "inventory-stacks-40x12", w: 40, h: 12, keys: []string{"enter"}, then: func(t *testing.T, m *Model) {
			adopt(t, m, withPack(t, m.game, fullPack()))
			press(m, "i")
		}},
		{name: "banner-over-play-60x16", w: 60, h: 16, keys: []string{"enter"}, then: func(t *testing.T, m *Model) {
			m.Update(BannerMsg{Text: "The server restarts at 18:00 UTC for an upgrade; your game will be saved."})
		}},
		{name: "play-daily-80x24", w: 80, h: 24, keys: []string{"enter"}, then: playDaily},
		{name: "play-daily-40x12", w: 40, h: 12, keys: []string{"enter"}, then: playDaily},
		{name: "title-daily-confirm-40x12", w: 40, h: 12, then: func(t *testing.T, m *Model) {
			tp := m.p.Play.(*fakePlay)
			blob, err := game.NewDaily(247, testNow.Format("2006-01-02"), m.p.Data).Encode()
			if err != nil {
				t.Fatal(err)
			}
			if err := tp.st.PutSave(tp.fp, blob); err != nil {
				t.Fatal(err)
			}
			m.scr = newTitle(m, "")
			press(m, "n")
		}},
		{name: "game-over", w: 80, h: 24, keys: []string{"enter"}, then: func(t *testing.T, m *Model) {
			for i := 0; i < 20000 && !m.game.Over(); i++ {
				press(m, towardStairs(m))
			}
			if !m.game.Over() {
				t.Fatal("no end in 20000 turns of diving")
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := goldenModel(t, c.w, c.h, c.keys...)
			if c.then != nil {
				c.then(t, m)
			}
			checkGolden(t, c.name, m)
			if _, aiming := m.scr.(*targetScreen); aiming {
				compareGolden(t, c.name+"-highlights", highlights(t, m))
			}
		})
	}
}

// playDaily makes m play the daily challenge of testNow's day (seed 247),
// a few steps in.
func playDaily(t *testing.T, m *Model) {
	adopt(t, m, game.NewDaily(247, testNow.Format("2006-01-02"), m.p.Data))
	m.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h}) // settles the camera on the player
	for _, k := range []string{"l", "l", "j", "."} {
		press(m, k)
	}
}
