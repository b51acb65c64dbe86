package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

func TestContrastIsTheWCAGRatio(t *testing.T) {
	white := content.RGB{R: 255, G: 255, B: 255}
	for _, c := range []struct {
		a, b content.RGB
		want float64
	}{
		{white, background, 21},
		{background, background, 1},
		{content.RGB{R: 118, G: 118, B: 118}, white, 4.54}, // WCAG's own example: #767676 on white
		{content.RGB{B: 255}, background, 2.44},
	} {
		if got := contrast(c.a, c.b); got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// drawable is one colour the map can draw for a glyph a player must read.
type drawable struct {
	what  string
	fg    content.RGB
	basic ansi.BasicColor
}

// mapColours lists every colour th draws glyphs in: each tile kind, in the
// caverns' look and the ordinary one, in view on a lit level, in view on a
// dark level under a grid of lights (0 to 1.5 per channel: sums of the
// torch and other sources can exceed 1), and remembered; the player, remains
// and every monster and item of data, in view and remembered.
func mapColours(th *theme, data *content.Tables) []drawable {
	var out []drawable
	for tile := world.Tile(0); tile.Valid(); tile++ {
		for _, cave := range []bool{false, true} {
			lk := lookOf(tile, cave)
			name := fmt.Sprintf("tile %q (cave %v)", lk.ch, cave)
			fg, b := th.tileColour(lk, true, false, 1, 1, 1)
			out = append(out, drawable{name + " in view", fg, b})
			fg, b = th.tileColour(lk, false, cave, 0, 0, 0)
			out = append(out, drawable{name + " remembered", fg, b})
			const steps = 9
			for r := range steps + 1 {
				for g := range steps + 1 {
					for bl := range steps + 1 {
						l := func(i int) float64 { return 1.5 * float64(i) / steps }
						fg, b := th.tileColour(lk, true, true, l(r), l(g), l(bl))
						out = append(out, drawable{fmt.Sprintf("%s lit (%.2f %.2f %.2f)", name, l(r), l(g), l(bl)), fg, b})
					}
				}
			}
		}
	}
	things := []drawable{{"the player", content.RGB{R: 255, G: 255, B: 255}, ansi.BrightWhite}}
	fg, b := remainsFG()
	things = append(things, drawable{"remains", fg, b})
	for _, m := range data.Monsters {
		things = append(things, drawable{"monster " + m.ID, m.FG, nearestBasic(m.FG)})
	}
	for _, it := range data.Items {
		things = append(things, drawable{"item " + it.ID, it.FG, nearestBasic(it.FG)})
	}
	for _, d := range things {
		fg, b := th.thingColour(d.fg, d.basic, false)
		out = append(out, drawable{d.what + " in view", fg, b})
		fg, b = th.thingColour(d.fg, d.basic, true)
		out = append(out, drawable{d.what + " remembered", fg, b})
	}
	return out
}

var profiles = []struct {
	name string
	p    colorprofile.Profile
}{{"16 colours", colorprofile.ANSI}, {"256 colours", colorprofile.ANSI256}, {"true colour", colorprofile.TrueColor}}

// Remembered tiles were once drawn in 235-237 and deep water in 18/19
// on black. Every glyph keeps WCAG 2.x's 3:1 as the terminal shows it: 16
// colours by xterm's default palette, 256 by the xterm cube and greys the
// renderer downsamples to, true colour as written.
func TestEveryColourTheMapDrawsHasAtLeast3To1ContrastOnBlack(t *testing.T) {
	data := *content.Default()
	// A monster the data made too dark (the cube's light colour): raised at draw time.
	data.Monsters = append(append([]content.Monster(nil), data.Monsters...),
		content.Monster{ID: "dark test monster", FG: content.RGB{R: 0x55}}, content.Monster{ID: "black test monster"})
	for _, pr := range profiles {
		t.Run(pr.name, func(t *testing.T) {
			th := newTheme(pr.p)
			fails := 0
			colours := mapColours(th, &data)
			for _, d := range colours {
				shownAs := shown(pr.p, d.fg, d.basic)
				if c := contrast(shownAs, background); c < minContrast {
					if fails++; fails <= 10 {
						t.Errorf("%s: drawn %v (basic %d), shown as %v: contrast %.2f:1, under 3:1", d.what, d.fg, d.basic, shownAs, c)
					}
				}
			}
			if fails > 0 {
				t.Errorf("%d of %d colours under 3:1", fails, len(colours))
			}
		})
	}
}

// Remembered things and tiles stay dimmer than the same in view, so the
// look of memory is kept while it stays readable.
func TestRememberedIsDimmerThanInView(t *testing.T) {
	th := newTheme(colorprofile.TrueColor)
	for tile := world.Tile(0); tile.Valid(); tile++ {
		for _, cave := range []bool{false, true} {
			lk := lookOf(tile, cave)
			seen, _ := th.tileColour(lk, true, false, 1, 1, 1)
			mem, _ := th.tileColour(lk, false, cave, 0, 0, 0)
			if luminance(mem) >= luminance(seen) {
				t.Errorf("tile %q (cave %v): remembered %v is not dimmer than %v in view", lk.ch, cave, mem, seen)
			}
		}
	}
	fg, _ := remainsFG()
	things := map[string]content.RGB{"remains": fg}
	for _, it := range content.Default().Items {
		things[it.ID] = it.FG
	}
	for _, pr := range profiles[1:] {
		th := newTheme(pr.p)
		for name, fg := range things {
			seen := shown(pr.p, must(th.thingColour(fg, 0, false)), 0)
			mem := shown(pr.p, must(th.thingColour(fg, 0, true)), 0)
			if luminance(mem) >= luminance(seen) {
				t.Errorf("%s, %s: remembered %v is not dimmer than %v in view", pr.name, name, mem, seen)
			}
		}
	}
}

func must(c content.RGB, _ ansi.BasicColor) content.RGB { return c }

// The data's colours are drawn as written where they are readable: the
// clamp changes only what would fall under 3:1.
func TestReadableKeepsAColourThatIsAlreadyReadable(t *testing.T) {
	for _, pr := range profiles[1:] {
		th := newTheme(pr.p)
		for _, m := range content.Default().Monsters {
			if contrast(shown(pr.p, m.FG, 0), background) >= seenContrast {
				if got := th.readable(m.FG, seenContrast); got != m.FG {
					t.Errorf("%s: %s's %v, already readable, was drawn %v", pr.name, m.ID, m.FG, got)
				}
			}
		}
		dark := content.RGB{R: 0x55}
		if got := th.readable(dark, minContrast); got.G != got.B || got.R <= got.G {
			t.Errorf("%s: #550000 raised to %v, which is no longer red", pr.name, got)
		}
	}
}

// BenchmarkReadableUncached is the cost of the first frame that draws a new
// torch-lit colour on 256 colours (later frames hit readable's cache).
func BenchmarkReadableUncached(b *testing.B) {
	th := newTheme(colorprofile.ANSI256)
	i := 0
	for b.Loop() {
		th.readableCache = nil
		i++
		th.readable(lit(content.RGB{R: 153, G: 153, B: 153}, float64(i%64)/64, float64(i%64)/64, float64(i%64)/128), seenContrast)
	}
}
