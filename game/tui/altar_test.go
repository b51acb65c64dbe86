package tui

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// withAltarOffering returns g with a dart on an altar east of the player
// and another dart on the floor west of them, made the way a save would
// carry them; and the two tiles.
func withAltarOffering(t *testing.T, g *game.Game) (*game.Game, world.Pos, world.Pos) {
	t.Helper()
	me := g.Player().Pos
	altar, floor := me.Add(1, 0), me.Add(-1, 0)
	if g.Tile(altar) != world.Floor || g.Tile(floor) != world.Floor {
		t.Fatalf("no floor either side of the player at %v", me)
	}
	w, _ := g.Size()
	g = editSave(t, g, func(state map[string]any) {
		mp := state["Map"].(map[string]any)
		tiles, err := base64.StdEncoding.DecodeString(mp["Tiles"].(string))
		if err != nil {
			t.Fatal(err)
		}
		tiles[altar.Y*w+altar.X] = byte(world.Altar)
		mp["Tiles"] = base64.StdEncoding.EncodeToString(tiles)
		var items []any
		for _, p := range []world.Pos{altar, floor} {
			items = append(items, map[string]any{"Kind": string(game.Dart), "Pos": map[string]any{"X": p.X, "Y": p.Y}})
		}
		state["Items"] = items
	})
	return g, altar, floor
}

// A tester's bug: an item on a shrine's altar hid the altar;
// the map drew it as the same item on the floor. It keeps the altar's
// look under it: its gold background in colour, and an underline (the
// altar is '_') that a terminal without colours still shows.
func TestAnItemOnAnAltarDiffersFromOneOnTheFloor(t *testing.T) {
	for _, pr := range []struct {
		name    string
		colour  Colour
		profile colorprofile.Profile
		want    string // an SGR parameter the altar's cell has
	}{{"true colour", ColourAuto, colorprofile.TrueColor, "48;2;255;215;90"}, {"16 colours", ColourAuto, colorprofile.ANSI, "103"},
		{"no colour", ColourNone, colorprofile.Ascii, "4"}} {
		m := newModel(t, newFakeStore(), 7)
		m.set.Colour = pr.colour
		m.th = newTheme(pr.profile)
		if pr.colour == ColourNone {
			m.th = newTheme(m.profile())
		}
		press(m, "enter")
		g, altar, floor := withAltarOffering(t, m.game)
		adopt(t, m, g)
		var out bytes.Buffer
		w := &colorprofile.Writer{Forward: &out, Profile: pr.profile}
		if _, err := w.WriteString(m.View().Content); err != nil {
			t.Fatal(err)
		}
		attrs := cellAttrs(out.String())
		lines := strings.Split(plain(m), "\n")
		cam := m.scr.(*playScreen).cam
		at := func(p world.Pos) (string, rune) {
			return attrs[p.Y-cam.y][p.X-cam.x], []rune(lines[p.Y-cam.y])[p.X-cam.x]
		}
		a, ach := at(altar)
		f, fch := at(floor)
		if ach != fch {
			t.Errorf("%s: the dart on the altar is drawn %q, on the floor %q", pr.name, ach, fch)
		}
		if !strings.Contains(";"+a+";", ";"+pr.want+";") {
			t.Errorf("%s: a dart on an altar is drawn without %q (attributes %q)", pr.name, pr.want, a)
		}
		if a == f {
			t.Errorf("%s: a dart on an altar is drawn as one on the floor (attributes %q)", pr.name, a)
		}
	}
}

// The legend says how an item on an altar looks.
func TestTheLegendNamesAnItemOnAnAltar(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	for _, e := range legend(m.p.Data, false) {
		if strings.Contains(e.name, "on an altar") {
			return
		}
	}
	t.Error("the legend does not say how an item on an altar is drawn")
}
