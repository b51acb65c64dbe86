package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// This file holds the colours. Everything is written in true colour; Bubble
// Tea's renderer downsamples to the 256 or 16 colours the client's terminal
// reports, so one theme serves every terminal.

// theme is built once per session (no package-level mutable state).
type theme struct {
	basic bool // 16 colours or fewer: basic colours, no lighting
	bare  bool // no colours (Ascii) or no attributes at all (NoTTY, e.g. TERM=dumb): overlays need marks, not colours

	msg        map[game.MsgKind]lipgloss.Style
	impossible lipgloss.Style
	status     lipgloss.Style
	hpGood     lipgloss.Style
	hpLow      lipgloss.Style
	title      lipgloss.Style
	selected   lipgloss.Style
	dim        lipgloss.Style
	text       lipgloss.Style
	heading    lipgloss.Style
	potion     lipgloss.Style
	scroll     lipgloss.Style
	box        lipgloss.Style
}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 255} }

// newTheme builds the colours for a terminal's colour profile. Colours are
// written in true colour and downsampled by Bubble Tea for 256-colour
// terminals; on 16 colours and below the map uses basic colours picked by
// hand (and no lighting), because the nearest basic colour of a muted or
// torch-lit tone is often a garish one.
func newTheme(profile colorprofile.Profile) *theme {
	t := &theme{basic: profile <= colorprofile.ANSI, bare: profile <= colorprofile.Ascii}
	t.chrome()
	return t
}

// chrome sets the colours of text around the map; Bubble Tea downsamples them.
func (t *theme) chrome() {
	st := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	t.msg = map[game.MsgKind]lipgloss.Style{
		game.MsgInfo:        st(rgb(255, 255, 255)),
		game.MsgWelcome:     st(rgb(32, 160, 255)),
		game.MsgPlayerHit:   st(rgb(224, 224, 224)),
		game.MsgEnemyHit:    st(rgb(255, 160, 160)),
		game.MsgEnemyDeath:  st(rgb(255, 160, 48)),
		game.MsgPlayerDeath: st(rgb(255, 48, 48)),
		game.MsgDescend:     st(rgb(159, 63, 255)),
		game.MsgHeal:        st(rgb(0, 255, 0)),   // tcod part 6: health_recovered
		game.MsgStatus:      st(rgb(63, 255, 63)), // tcod part 8: status_effect_applied
	}
	t.impossible = st(rgb(128, 128, 128))
	t.status = st(rgb(220, 220, 220))
	t.hpGood = st(rgb(80, 220, 80)).Bold(true)
	t.hpLow = st(rgb(255, 64, 64)).Bold(true)
	t.title = st(rgb(255, 200, 80)).Bold(true)
	t.selected = lipgloss.NewStyle().Foreground(rgb(0, 0, 0)).Background(rgb(255, 200, 80)).Bold(true)
	t.dim = st(rgb(128, 128, 128))
	t.text = st(rgb(220, 220, 220))
	t.heading = st(rgb(32, 160, 255)).Bold(true)
	t.potion = st(rgb(200, 100, 255))
	t.scroll = st(rgb(255, 230, 100))
	t.box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(rgb(120, 120, 140)).Padding(0, 1)
}

// msgStyle returns the style of a message kind (white for unknown kinds).
func (t *theme) msgStyle(k game.MsgKind) lipgloss.Style {
	if s, ok := t.msg[k]; ok {
		return s
	}
	return t.msg[game.MsgInfo]
}

// tileLook is how a tile kind is drawn: glyph, true colour, basic colour.
type tileLook struct {
	ch    rune
	fg    content.RGB
	basic ansi.BasicColor
	bold  bool
}

// lookOf returns the look of a tile, for ordinary levels or for the
// caverns (bracket-lib, "Theming the caverns": walls ▒ light grey, gravel ;
// grey, shallow water ░ cyan, deep water ▓ blue, stalactites ╨ and
// stalagmites ╥, stairs cyan).
func lookOf(t world.Tile, cave bool) tileLook {
	grey := func(v float64) content.RGB { c := uint8(v * 255); return content.RGB{R: c, G: c, B: c} }
	switch t {
	case world.Floor:
		if cave {
			return tileLook{'.', grey(0.6), ansi.White, false}
		}
		return tileLook{'.', content.RGB{R: 200, G: 180, B: 110}, ansi.Yellow, false}
	case world.Wall:
		if cave {
			return tileLook{'▒', grey(0.8), ansi.White, false}
		}
		return tileLook{'#', content.RGB{R: 190, G: 160, B: 100}, ansi.White, false}
	case world.Gravel:
		return tileLook{';', content.RGB{R: 150, G: 135, B: 115}, ansi.Yellow, false}
	case world.ShallowWater:
		return tileLook{'░', content.RGB{G: 255, B: 255}, ansi.Cyan, false}
	case world.DeepWater:
		return tileLook{'▓', content.RGB{B: 255}, ansi.Blue, false}
	case world.Stalactite:
		return tileLook{'╨', grey(0.5), ansi.White, false}
	case world.Stalagmite:
		return tileLook{'╥', grey(0.5), ansi.White, false}
	case world.DownStairs, world.UpStairs:
		ch := '>'
		if t == world.UpStairs {
			ch = '<'
		}
		if cave {
			return tileLook{ch, content.RGB{G: 255, B: 255}, ansi.BrightCyan, true}
		}
		return tileLook{ch, content.RGB{R: 255, G: 255, B: 255}, ansi.BrightWhite, true}
	}
	return tileLook{'?', grey(1), ansi.BrightMagenta, false}
}

// greyscale returns the remembered look of a colour: its luminance, dimmed
// well below anything in view but never so dark that it vanishes on black.
func greyscale(c content.RGB) content.RGB {
	v := uint8(max(40, (0.299*float64(c.R)+0.587*float64(c.G)+0.114*float64(c.B))*0.3))
	return content.RGB{R: v, G: v, B: v}
}

// minLight is the least light a tile in view gets on a dark level: the torch
// formula falls to 0 at the edge of its range, and a tile the player sees
// must still stand out from the remembered ones (drawn at 30% grey). Light
// l is drawn as minLight + (1 − minLight)·l of the tile's colour.
const minLight = 0.5

// lit multiplies a colour by a light level per channel, clamped to 0..255.
func lit(c content.RGB, r, g, b float64) content.RGB {
	ch := func(v uint8, l float64) uint8 { return uint8(min(255, float64(v)*(minLight+(1-minLight)*l))) }
	return content.RGB{R: ch(c.R, r), G: ch(c.G, g), B: ch(c.B, b)}
}

// actorFG returns an actor's colour: white for the player, dark red for
// remains, else its colour in the data.
func actorFG(data *content.Tables, a game.Actor) (content.RGB, ansi.BasicColor) {
	switch {
	case a.Kind == "player":
		return content.RGB{R: 255, G: 255, B: 255}, ansi.BrightWhite
	case a.Corpse:
		return content.RGB{R: 191}, ansi.Red
	}
	if k, ok := data.Monster(a.Kind); ok {
		return k.FG, nearestBasic(k.FG)
	}
	return content.RGB{R: 255, G: 255}, ansi.BrightYellow
}

// itemMark is how the map draws an item of kind k: its glyph and colour
// from the data (items.json), or a yellow '*' for a kind the data lacks.
func itemMark(data *content.Tables, k game.ItemKind) mark {
	if it, ok := data.Item(string(k)); ok {
		return mark{ch: it.Glyph, fg: it.FG, basic: nearestBasic(it.FG)}
	}
	return mark{ch: '*', fg: content.RGB{R: 255, G: 255}, basic: ansi.BrightYellow}
}

// nearestBasic picks a bright basic colour for a data colour by which
// channels dominate: good enough to tell monsters apart on 16 colours.
func nearestBasic(c content.RGB) ansi.BasicColor {
	hi := max(c.R, c.G, c.B)
	if hi < 40 {
		return ansi.BrightBlack
	}
	bit := func(v uint8) int {
		if int(v)*2 >= int(hi) {
			return 1
		}
		return 0
	}
	return ansi.BasicColor(8 + bit(c.R) + 2*bit(c.G) + 4*bit(c.B))
}
